/**
 * The SQLite store's writes: stations upserted in batches, a source's prices replaced, stations removed.
 */
import { batchesOf, DEFAULT_BATCH_SIZE, dedupeStations, errorMessage, inSampleKeyOrder } from '../input';
import {
  CURRENCY_SLOTS,
  currencySlots,
  fuelSlotSql,
  matchPrices,
  NO_KEY,
  newPriceKey,
  pricesOf,
  STATION_KEYS,
} from '../price-diff';
import { sampleKey, stationIdOf } from '../sample-key';
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
import { moveMapVersion } from './clusters';
import type { SqliteConnection } from './connection';
import { featureHeadSql } from './features';
import { inHistoryOrder } from './history';

/** The place of `value` in the ascending `sorted`, or -1. */
function bisect(sorted: number[], value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = sorted[middle] as number;
    if (at === value) return middle;
    if (at < value) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/**
 * Station numbers per sample key (migration 005): a station's seq is its sample key times this plus its place
 * among the stations sharing that key, so the tables keyed by seq hold stations in sample-key order. A
 * million stations share a 31-bit key a few at a time; past 8,192 on one key a new station would take a
 * number of the next key's place (still read in sample-key order, through the index), and its write batch
 * fails if that number is taken.
 */
const SEQ_PER_KEY = 8192;

/** A replace writes its prices in station order as one sort of numbers (station number × this + index). */
const PRICES_PER_RUN = 2 ** 23;

/**
 * A station already stored is updated only when one of its fields changed (most of a feed, every run,
 * is left alone; updated_at is when its fields last changed); a new one gets its number, its Feature
 * text (migrations 004 and 005), an id that begins with its sample key (sample-key.ts) and, after the
 * batch's rows, its R*Tree entry (migration 008).
 */
export async function upsertStations(
  c: SqliteConnection,
  stations: StationInput[],
  options: UpsertOptions = {},
): Promise<UpsertResult> {
  const stored = c.prepare('SELECT 1 FROM stations WHERE external_id = @externalId AND country = @country');
  const fields = ['station_type', 'name', 'brand', 'address', 'city', 'lon', 'lat', 'power_kw', 'source'];
  const values = '@type, @name, @brand, @address, @city, @lon, @lat, @powerKw, @source';
  const update = c.prepare(
    `UPDATE stations SET (${fields.join(', ')}, updated_at) = (${values}, @now),
       feature_head = ${featureHeadSql('id', 'external_id', 'country')}
     WHERE external_id = @externalId AND country = @country AND (${fields.join(', ')}) IS NOT (${values})`,
  );
  // A new station's number is the next free one of its sample key's place (migration 005).
  const seq = `coalesce((SELECT max(seq) + 1 FROM stations
    WHERE seq BETWEEN @sampleKey * ${SEQ_PER_KEY} AND @sampleKey * ${SEQ_PER_KEY} + ${SEQ_PER_KEY - 1}),
    @sampleKey * ${SEQ_PER_KEY})`;
  const insert = c.prepare(
    `INSERT INTO stations (seq, id, external_id, country, ${fields.join(', ')}, sample_key, created_at,
       updated_at, feature_head)
     VALUES (${seq}, @id, @externalId, @country, ${values}, @sampleKey, @now, @now,
       ${featureHeadSql('@id', '@externalId', '@country')})`,
  );
  const indexed = c.prepare(
    'INSERT INTO stations_rtree (seq, min_lon, max_lon, min_lat, max_lat) VALUES (?, ?, ?, ?, ?)',
  );
  const failedBatches: FailedBatch[] = [];
  let count = 0;
  for (const batch of batchesOf(inSampleKeyOrder(stations), options.batchSize ?? DEFAULT_BATCH_SIZE)) {
    // Each batch is its own short transaction; between them the server answers its requests.
    await new Promise((resolve) => setImmediate(resolve));
    const now = Date.now();
    const unique = dedupeStations(batch.items);
    const write = c.db.transaction(() => {
      let changed = 0;
      /** The batch's new stations, for the spatial index (migration 008): seq, lon, lat. */
      const added: number[] = [];
      for (const s of unique) {
        const row = {
          externalId: s.externalId,
          country: s.country,
          type: s.type,
          name: s.name,
          brand: s.brand ?? null,
          address: s.address,
          city: s.city,
          lon: s.lon,
          lat: s.lat,
          powerKw: s.powerKw ?? null,
          source: s.source,
          now,
          id: '',
          sampleKey: 0,
        };
        if (stored.get(row)) {
          changed += update.run(row).changes;
        } else {
          row.sampleKey = sampleKey(s.country, s.externalId);
          row.id = stationIdOf(row.sampleKey);
          const { changes, lastInsertRowid } = insert.run(row);
          changed += changes;
          added.push(Number(lastInsertRowid), s.lon, s.lat);
        }
      }
      for (let i = 0; i < added.length; i += 3) {
        const lon = added[i + 1] as number;
        const lat = added[i + 2] as number;
        indexed.run(added[i] as number, lon, lon, lat, lat);
      }
      if (changed > 0) moveMapVersion(c);
    });
    try {
      write();
      count += unique.length;
    } catch (error) {
      failedBatches.push({ offset: batch.offset, size: batch.items.length, message: errorMessage(error) });
    }
  }
  return { count, failedBatches };
}

export async function replacePrices(
  c: SqliteConnection,
  source: string,
  country: string,
  prices: PriceList,
  options: ReplacePricesOptions = {},
): Promise<ReplacePricesResult> {
  const now = Date.now();
  const history = options.history ?? true;
  const replace = c.db.transaction(() => {
    const currencySlot = currencySlots(pricesOf(prices));
    // The country's stations by external id, read row by row, and not at all when no price is given (a
    // charger register of 1,000,000 stations).
    // The stations numbered in the order of their seq: the price keys' station numbers (price-diff.ts
    // wants numbers close together; a seq holds the station's sample key, migration 005), and the order
    // the prices are written in. `seqAt` is sorted, so a seq finds its number by bisection.
    const numberOf = new Map<string, number>();
    const seqAt: number[] = [];
    let anyOfCountry = false;
    for (const price of pricesOf(prices)) {
      anyOfCountry = price.country === country;
      if (anyOfCountry) break;
    }
    if (anyOfCountry) {
      const rows = c
        .prepare('SELECT external_id, seq FROM stations WHERE country = ? ORDER BY seq')
        .raw()
        .iterate(country);
      for (const [externalId, seq] of rows as Iterable<[string, number]>) {
        numberOf.set(externalId, seqAt.length);
        seqAt.push(seq);
      }
    }
    const seqOf = new Float64Array(prices.length);
    const keys = new Float64Array(prices.length);
    const order = new Float64Array(prices.length);
    for (let j = 0; j < prices.length; j++) {
      const price = prices.at(j) as PriceInput;
      const number = price.country === country ? numberOf.get(price.externalId) : undefined;
      seqOf[j] = number === undefined ? -1 : (seqAt[number] as number);
      keys[j] = newPriceKey(number, price, currencySlot);
      order[j] = (number ?? seqAt.length) * PRICES_PER_RUN + j;
    }
    numberOf.clear();
    const previous = previousPrices(c, source, country, [...currencySlot.keys()], seqAt);
    const { previousOf, leftover } = matchPrices(previous.keys, previous.rowids, keys);

    const remove = c.prepare('DELETE FROM prices WHERE rowid = ?');
    for (const i of leftover) remove.run(previous.rowids[i]);
    const update = c.prepare('UPDATE prices SET price = ?, reported_at = ? WHERE rowid = ?');
    const insert = c.prepare(
      `INSERT INTO prices (station_seq, fuel, price, currency, reported_at, source)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    let inserted = 0;
    let written = leftover.length;
    /** The prices that changed, as their place in `prices` and their time, for the history. */
    const changes = {
      places: new Uint32Array(prices.length),
      times: new Float64Array(prices.length),
      size: 0,
    };
    // In the order of the stations' numbers, the order of the price index and of the prices first
    // written: a feed lists its stations in its own order, and rows written in that order land all over
    // the tables (migration 005). Each station's prices keep the order they were given in.
    // Past PRICES_PER_RUN prices they are written in the order given.
    const sorted = prices.length < PRICES_PER_RUN;
    if (sorted) order.sort();
    for (let n = 0; n < order.length; n++) {
      const j = sorted ? (order[n] as number) % PRICES_PER_RUN : n;
      const price = prices.at(j) as PriceInput;
      const seq = seqOf[j] as number;
      if (seq < 0) continue;
      inserted++;
      const at = price.reportedAt?.getTime() ?? now;
      const i = previousOf[j] as number;
      const changed = i < 0 || previous.prices[i] !== price.price;
      if (i < 0) insert.run(seq, price.fuel, price.price, price.currency, at, source);
      else if (changed || previous.times[i] !== at) update.run(price.price, at, previous.rowids[i]);
      else continue;
      written++;
      if (history && changed) {
        changes.places[changes.size] = j;
        changes.times[changes.size++] = at;
      }
    }
    const remember = c.prepare(
      `INSERT INTO price_history (country, external_id, fuel, price, currency, source, changed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const k of inHistoryOrder(prices, changes.places.subarray(0, changes.size))) {
      const price = prices.at(changes.places[k] as number) as PriceInput;
      remember.run(
        country,
        price.externalId,
        price.fuel,
        price.price,
        price.currency,
        source,
        changes.times[k],
      );
    }
    // A run that changed nothing (every price as stored, with its time) leaves the newest prices as they are.
    if (written > 0) refreshLatestPrices(c, country);
    return { inserted, skipped: prices.length - inserted, deleted: previous.rowids.length };
  });
  return replace.immediate();
}

/** Stations whose previous prices a replace reads at once. */
const PREVIOUS_PART = 25_000;

/**
 * This source's prices of the country (in no particular order; the row ids tell): row ids, keys (the
 * station by its place in `seqAt`, sorted; see price-diff.ts), prices and times. Five JSON arrays of one row
 * parse far faster than 400,000 rows (0.2 against 0.7 s); 17 significant digits give back each price
 * exactly. Read PREVIOUS_PART stations at a time (by their seq, through the prices' source index).
 */
function previousPrices(
  c: SqliteConnection,
  source: string,
  country: string,
  currencies: string[],
  seqAt: number[],
): { rowids: Float64Array; keys: Float64Array; prices: Float64Array; times: Float64Array } {
  const currencySql = currencies.map((_, i) => `WHEN @c${i} THEN ${i}`).join(' ');
  const slot = `${fuelSlotSql('p.fuel')} * ${CURRENCY_SLOTS}
    + ${currencySql ? `CASE p.currency ${currencySql} ELSE ${CURRENCY_SLOTS - 1} END` : CURRENCY_SLOTS - 1}`;
  const read = c
    .prepare(
      `SELECT '[' || group_concat(p.rowid) || ']', '[' || group_concat(p.station_seq) || ']',
       '[' || group_concat(${slot}) || ']', '[' || group_concat(printf('%!.17g', p.price)) || ']',
       '[' || group_concat(p.reported_at) || ']'
     FROM prices p JOIN stations s ON s.seq = p.station_seq
     WHERE p.source = @source AND s.country = @country AND p.station_seq >= @from AND p.station_seq < @to`,
    )
    .raw();
  const bound = { source, country, ...Object.fromEntries(currencies.map((c, i) => [`c${i}`, c])) };
  // Typed columns grown by doubling: arrays of 4,000,000 numbers grown by push held 1.5 times their size.
  let size = 0;
  let columns = [0, 1, 2, 3].map(() => new Float64Array(1024));
  // A part of the country's stations at a time: the texts of 4,000,000 prices at once took 500 MB.
  for (let first = 0; first === 0 || first < seqAt.length; first += PREVIOUS_PART) {
    const from = first === 0 ? Number.MIN_SAFE_INTEGER : (seqAt[first] as number);
    const to =
      first + PREVIOUS_PART < seqAt.length
        ? (seqAt[first + PREVIOUS_PART] as number)
        : Number.MAX_SAFE_INTEGER;
    const row = read.get({ ...bound, from, to }) as (string | null)[];
    const [rowids = [], seqs = [], slots = [], prices = [], times = []] = row.map(
      (list) => JSON.parse(list ?? '[]') as number[],
    );
    if (size + seqs.length > (columns[0] as Float64Array).length) {
      const grown = Math.max(2 * (columns[0] as Float64Array).length, size + seqs.length);
      columns = columns.map((column) => {
        const copy = new Float64Array(grown);
        copy.set(column.subarray(0, size));
        return copy;
      });
    }
    const [rowidAt, keyAt, priceAt, timeAt] = columns as [
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
    ];
    for (const [i, seq] of seqs.entries()) {
      const station = bisect(seqAt, seq);
      keyAt[size] = station < 0 ? NO_KEY : station * STATION_KEYS + (slots[i] as number);
      rowidAt[size] = rowids[i] as number;
      priceAt[size] = prices[i] as number;
      timeAt[size] = times[i] as number;
      size++;
    }
  }
  const [rowids, keys, prices, times] = columns.map((column) => column.subarray(0, size)) as [
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
  ];
  return { rowids, keys, prices, times };
}

/**
 * The country's newest price per station and fuel, taken again from `prices` (other sources' prices for
 * the same station count too): newest first; among equal times, the row stored last (a price updated in
 * place keeps its row).
 */
function refreshLatestPrices(c: SqliteConnection, country: string): void {
  c.prepare(
    'DELETE FROM latest_prices WHERE station_seq IN (SELECT seq FROM stations WHERE country = ?)',
  ).run(country);
  c.prepare(
    `INSERT INTO latest_prices (station_seq, fuel, price, currency, reported_at)
     SELECT p.station_seq, p.fuel, p.price, p.currency, p.reported_at
     FROM stations s JOIN prices p ON p.station_seq = s.seq
     WHERE s.country = ? AND p.rowid = (
       SELECT q.rowid FROM prices q WHERE q.station_seq = p.station_seq AND q.fuel = p.fuel
       ORDER BY q.reported_at DESC, q.rowid DESC LIMIT 1)`,
  ).run(country);
  moveMapVersion(c);
}

export async function deleteOrphanFuelStations(c: SqliteConnection, country: string): Promise<number> {
  const remove = c.db.transaction(() => {
    const { changes } = c
      .prepare(
        `DELETE FROM stations WHERE country = ? AND station_type = 'fuel'
       AND NOT EXISTS (SELECT 1 FROM prices p WHERE p.station_seq = stations.seq)`,
      )
      .run(country);
    if (changes > 0) moveMapVersion(c);
    return changes;
  });
  return remove.immediate();
}

export async function deleteStationsBySource(
  c: SqliteConnection,
  source: string,
  country: string,
  options: DeleteBySourceOptions = {},
): Promise<number> {
  const keep = JSON.stringify([...(options.exceptExternalIds ?? [])]);
  const remove = c.db.transaction(() => {
    const { changes } = c
      .prepare(
        `DELETE FROM stations WHERE country = ? AND source = ?
       AND external_id NOT IN (SELECT value FROM json_each(?))`,
      )
      .run(country, source, keep);
    if (changes > 0) moveMapVersion(c);
    return changes;
  });
  return remove.immediate();
}
