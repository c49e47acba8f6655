/**
 * The PostgreSQL store's writes: stations upserted in batches, a source's prices replaced, stations removed.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { escapeCopyText, forEachStreamedCopyRow, unescapeCopyText } from '../../../common/copy-text';
import { batchesOf, DEFAULT_BATCH_SIZE, dedupeStations, errorMessage, inSampleKeyOrder } from '../input';
import {
  CURRENCY_SLOTS,
  currencySlots,
  fuelSlotSql,
  matchPrices,
  NO_KEY,
  newPriceKey,
  priceKey,
  pricesOf,
} from '../price-diff';
import { sampleKey } from '../sample-key';
import type {
  DeleteBySourceOptions,
  FailedBatch,
  PriceInput,
  PriceList,
  ReplacePricesOptions,
  ReplacePricesResult,
  StationInput,
  UpsertOptions,
  UpsertResult,
} from '../store';
import { inTransaction, type PostgresConnection } from './connection';
import { featureHeadOf } from './features';

/**
 * Prices per statement of a replace. Each statement joins its prices to the country's stations, which the
 * planner does by hashing them all: 10,000 per statement hashed a 100,000-station country 40 times per
 * run (0.5 s of a 7 s ingest); 100,000 hashes it 4 times, and the arrays stay a few MB.
 */
const PRICE_BATCH = 100_000;

/**
 * Deletes a source's prices of a country and gives them back for matching (price-diff.ts): each one's key
 * (its station by the number `stationNumber` gives it, NO_KEY for a station not there), price and row id.
 * They come back as COPY text, which this process reads in about half the time the same 400,000 rows take
 * as a query's result (the driver's cost per row; scripts/bench/README.md). COPY takes no parameters, so
 * the source, country and currencies are written as literals.
 */
async function deletePreviousPrices(
  client: pg.PoolClient,
  source: string,
  country: string,
  stationNumber: Map<string, number>,
  currencies: Map<string, number>,
): Promise<{ keys: number[]; prices: number[]; order: number[] }> {
  const literal = (text: string) => client.escapeLiteral(text);
  const currencyWhen = [...currencies.keys()].map((code, i) => `WHEN ${literal(code)} THEN ${i}`).join(' ');
  const currencySlot = currencyWhen
    ? `CASE p.currency ${currencyWhen} ELSE ${CURRENCY_SLOTS - 1} END`
    : `${CURRENCY_SLOTS - 1}`;
  const copy = client.query(
    copyTo(`COPY (DELETE FROM prices p USING stations s
      WHERE p.station_id = s.id AND p.source = ${literal(source)} AND s.country = ${literal(country)}
      RETURNING s.external_id, ${fuelSlotSql('p.fuel')}, ${currencySlot}, p.price, p.id) TO STDOUT`),
  );
  const keys: number[] = [];
  const prices: number[] = [];
  const order: number[] = [];
  const row = ([externalId, fuel, currency, price, id]: string[]) => {
    const station = stationNumber.get(unescapeCopyText(externalId as string) ?? '');
    keys.push(station === undefined ? NO_KEY : priceKey(station, Number(fuel), Number(currency)));
    prices.push(Number(price));
    order.push(Number(id));
  };
  await forEachStreamedCopyRow(copy, 5, row);
  return { keys, prices, order };
}

/**
 * Rows into `target` (a table and its columns) with COPY, each written as its line of COPY text as it is
 * sent, in pieces of about 64 KB: the 400,000 lines of a run where every price changed are never all held.
 */
async function copyInto<T>(
  client: pg.PoolClient,
  target: string,
  rows: T[],
  line: (row: T) => string,
): Promise<void> {
  if (rows.length === 0) return;
  function* pieces(): Generator<string> {
    let piece = '';
    for (const row of rows) {
      piece += line(row);
      if (piece.length >= 65_536) {
        yield piece;
        piece = '';
      }
    }
    if (piece) yield piece;
  }
  await pipeline(Readable.from(pieces()), client.query(copyFrom(`COPY ${target} FROM STDIN`)));
}

export async function upsertStations(
  c: PostgresConnection,
  stations: StationInput[],
  options: UpsertOptions = {},
): Promise<UpsertResult> {
  const failedBatches: FailedBatch[] = [];
  let count = 0;
  // In sample-key order, as on SQLite (input.ts): a first import lays the rows out in the order of their ids,
  // which is the order a crowded box reads them in.
  for (const batch of batchesOf(inSampleKeyOrder(stations), options.batchSize ?? DEFAULT_BATCH_SIZE)) {
    const s = dedupeStations(batch.items);
    try {
      await c.pool.query(
        `INSERT INTO stations (id, external_id, country, station_type, name, brand, address, city, geom,
           power_kw, source, sample_key, feature_head)
         SELECT u.id, u.external_id, u.country, u.t, u.name, u.brand, u.address, u.city,
           ST_SetSRID(ST_MakePoint(u.lo, u.la), 4326), u.pk, u.so, u.sk,
           ${featureHeadOf('u', 'u.id', 'u.lo', 'u.la')}
         FROM (
           -- A new station's id begins with its sample key (migration 003); an existing one keeps its id.
           SELECT fuel_station_id(v.sk, gen_random_uuid()) AS id, *
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                       $8::float8[], $9::float8[], $10::float8[], $11::text[], $12::int[])
             AS v(external_id, country, t, name, brand, address, city, lo, la, pk, so, sk)) u
         ON CONFLICT (external_id, country) DO UPDATE SET
           station_type = excluded.station_type, name = excluded.name, brand = excluded.brand,
           address = excluded.address, city = excluded.city, geom = excluded.geom,
           power_kw = excluded.power_kw, source = excluded.source, updated_at = now(),
           feature_head = ${featureHeadOf('excluded', 'stations.id', 'ST_X(excluded.geom)', 'ST_Y(excluded.geom)')}
         -- A station the feed lists as it was is left alone: no new row version to write, index and
         -- vacuum (most of a feed, every run); updated_at is when its fields last changed.
         WHERE (stations.station_type, stations.name, stations.brand, stations.address, stations.city,
                stations.geom, stations.power_kw, stations.source)
           IS DISTINCT FROM (excluded.station_type, excluded.name, excluded.brand, excluded.address,
                excluded.city, excluded.geom, excluded.power_kw, excluded.source)`,
        [
          s.map((x) => x.externalId),
          s.map((x) => x.country),
          s.map((x) => x.type),
          s.map((x) => x.name),
          s.map((x) => x.brand ?? null),
          s.map((x) => x.address),
          s.map((x) => x.city),
          s.map((x) => x.lon),
          s.map((x) => x.lat),
          s.map((x) => x.powerKw ?? null),
          s.map((x) => x.source),
          s.map((x) => sampleKey(x.country, x.externalId)),
        ],
      );
      // Inserted, changed or already as given: each station of the batch is in the store as written.
      count += s.length;
    } catch (error) {
      failedBatches.push({ offset: batch.offset, size: batch.items.length, message: errorMessage(error) });
    }
  }
  return { count, failedBatches };
}

export async function replacePrices(
  c: PostgresConnection,
  source: string,
  country: string,
  prices: PriceList,
  options: ReplacePricesOptions = {},
): Promise<ReplacePricesResult> {
  // The places of the country's prices in the list; `at` gives the j-th of them.
  const all = new Uint32Array(prices.length);
  let count = 0;
  for (let i = 0; i < prices.length; i++) if (prices.at(i)?.country === country) all[count++] = i;
  const mine = all.subarray(0, count);
  const at = (j: number) => prices.at(mine[j] as number) as PriceInput;
  const history = options.history ?? true;
  const now = new Date();
  return inTransaction(c.pool, async (client) => {
    const deleteOld = `DELETE FROM prices p USING stations s
      WHERE p.station_id = s.id AND p.source = $1 AND s.country = $2`;
    let deleted: number;
    /**
     * The prices that differ from this source's previous price for the station, fuel and currency: those
     * that had one (their station is in the store: the delete found it) and those that had none.
     */
    let changed: number[] = [];
    let first: number[] = [];
    if (history) {
      // The old prices go, and come back to be matched with the new ones by key (price-diff.ts), as on
      // SQLite. Probing the price index for each new price instead cost as much as the rest of the
      // replace; updating rows in place, SQLite's way, is slower here than deleting and inserting them
      // (an update writes a new row version and an entry in every index; bench README).
      const currencies = currencySlots(pricesOf(prices, mine));
      const stationNumber = new Map<string, number>();
      const newKeys = new Float64Array(mine.length);
      for (let j = 0; j < mine.length; j++) {
        const price = at(j);
        let station = stationNumber.get(price.externalId);
        if (station === undefined) {
          station = stationNumber.size;
          stationNumber.set(price.externalId, station);
        }
        newKeys[j] = newPriceKey(station, price, currencies);
      }
      const previous = await deletePreviousPrices(client, source, country, stationNumber, currencies);
      deleted = previous.keys.length;
      const { previousOf } = matchPrices(previous.keys, previous.order, newKeys);
      for (let j = 0; j < mine.length; j++) {
        const i = previousOf[j] as number;
        if (i < 0) first.push(j);
        else if (previous.prices[i] !== at(j).price) changed.push(j);
      }
    } else {
      deleted = (await client.query(deleteOld, [source, country])).rowCount ?? 0;
    }
    const given = `unnest($3::text[], $4::text[], $5::float8[], $6::text[], $7::timestamptz[]) AS u(e, f, p, cur, at)`;
    // Each statement matches its prices to the country's stations by external id, and only prices of
    // a station in the store are written, to the history too.
    const matched = `FROM ${given} JOIN stations s ON s.external_id = u.e AND s.country = $2`;
    const columns = (js: number[]) => {
      const p = js.map(at);
      return [
        source,
        country,
        p.map((x) => x.externalId),
        p.map((x) => x.fuel),
        p.map((x) => x.price),
        p.map((x) => x.currency),
        p.map((x) => x.reportedAt ?? now),
      ];
    };
    // A price with a previous one is written as it is, with COPY: its station is in the store (the delete
    // found it). Joining a few thousand changes to the stations hashed the whole country's stations, and
    // COPY writes 40,000 rows in about 380 ms where an INSERT of the same rows as arrays took 500
    // (scripts/bench/README.md, fuel decisions). A price without one is written only if its station is.
    const where = `${escapeCopyText(country)}\t`;
    const by = `\t${escapeCopyText(source)}\t`;
    await copyInto(
      client,
      'price_history (country, external_id, fuel, price, currency, source, changed_at)',
      changed,
      (j) => {
        const p = at(j);
        return (
          `${where}${escapeCopyText(p.externalId)}\t${escapeCopyText(p.fuel)}\t${p.price}\t` +
          `${escapeCopyText(p.currency)}${by}${(p.reportedAt ?? now).toISOString()}\n`
        );
      },
    );
    for (const batch of batchesOf(first, PRICE_BATCH)) {
      await client.query(
        `INSERT INTO price_history (country, external_id, fuel, price, currency, source, changed_at)
         SELECT $2, u.e, u.f, u.p, u.cur, $1, u.at ${matched}`,
        columns(batch.items),
      );
    }
    changed = [];
    first = [];
    let inserted = 0;
    for (let from = 0; from < mine.length; from += PRICE_BATCH) {
      const batch = {
        items: Array.from({ length: Math.min(PRICE_BATCH, mine.length - from) }, (_, n) => from + n),
      };
      const result = await client.query(
        `INSERT INTO prices (station_id, fuel, price, currency, reported_at, source, place_key)
         SELECT s.id, u.f, u.p, u.cur, u.at, $1, fuel_place_key(s.geom) ${matched}`,
        columns(batch.items),
      );
      inserted += result.rowCount ?? 0;
    }
    return { inserted, skipped: prices.length - inserted, deleted };
  });
}

export async function deleteOrphanFuelStations(c: PostgresConnection, country: string): Promise<number> {
  const result = await c.pool.query(
    `DELETE FROM stations s WHERE s.country = $1 AND s.station_type = 'fuel'
     AND NOT EXISTS (SELECT 1 FROM prices p WHERE p.station_id = s.id)`,
    [country],
  );
  return result.rowCount ?? 0;
}

export async function deleteStationsBySource(
  c: PostgresConnection,
  source: string,
  country: string,
  options: DeleteBySourceOptions = {},
): Promise<number> {
  const result = await c.pool.query(
    `DELETE FROM stations s WHERE s.country = $1 AND s.source = $2
     AND NOT EXISTS (SELECT 1 FROM unnest($3::text[]) AS keep(id) WHERE keep.id = s.external_id)`,
    [country, source, [...(options.exceptExternalIds ?? [])]],
  );
  return result.rowCount ?? 0;
}
