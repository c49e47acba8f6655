/**
 * The scale-out backend: PostgreSQL with PostGIS through pg. Boxes use the GiST index on the point
 * geometry; distances use geography on the sphere (the same sphere as the SQLite backend).
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { createPgPool } from '../../common/databases';
import { escapeCopyText, forEachStreamedCopyRow, unescapeCopyText } from './copy-text';
import { type CorridorSource, type Placed, searchCorridor } from './corridor';
import { FeatureRuns, featureRunsOf, finishFeatureText, finishFeatureTextAlong } from './feature-text';
import { batchesOf, DEFAULT_BATCH_SIZE, dedupeStations, errorMessage, inSampleKeyOrder } from './input';
import { migrateFuel } from './migrations';
import { nearestInWideningCircles } from './nearest';
import { PositionsBuilder, type StationPositions, VersionedPositions } from './positions';
import {
  CURRENCY_SLOTS,
  currencySlots,
  fuelSlotSql,
  matchPrices,
  NO_KEY,
  newPriceKey,
  priceKey,
} from './price-diff';
import { sampleKey } from './sample-key';
import {
  type BoxQuery,
  type BoxResult,
  type CorridorQuery,
  type CorridorResult,
  type DeleteBySourceOptions,
  EV_FUEL,
  type FailedBatch,
  type FeatureTexts,
  type FuelStore,
  type HistoryQuery,
  type NearestQuery,
  type NearestRow,
  type PriceChangeRow,
  type PriceInput,
  type ReplacePricesOptions,
  type ReplacePricesResult,
  type StationInput,
  type StationRow,
  type StationRowReads,
  type StationType,
  type StoreStats,
  type UpsertOptions,
  type UpsertResult,
} from './store';

export interface PostgresStoreOptions {
  /** Apply pending migrations on open (default true). */
  migrate?: boolean;
  /** Largest number of pooled connections (default 10). */
  maxConnections?: number;
}

interface RawRow {
  id: string;
  external_id: string;
  country: string;
  station_type: StationType;
  name: string;
  brand: string | null;
  address: string;
  city: string;
  lon: number;
  lat: number;
  power_kw: number | null;
  price: number | null;
  currency: string | null;
  reported_at: Date | null;
}

const COLUMNS = `s.id, s.external_id, s.country, s.station_type, s.name, s.brand, s.address, s.city,
  ST_X(s.geom) AS lon, ST_Y(s.geom) AS lat, s.power_kw`;
const EV_TYPES = `s.station_type IN ('ev_charger', 'both')`;
/**
 * Two columns for `finishFeatureText` (feature-text.ts): the station's Feature as text, for a fuel up to the
 * opening quote of its price's time, and that time in milliseconds (NULL for chargers, whose text is
 * whole). The text begins with the station's stored `feature_head` (migration 006, written by the upsert:
 * `featureHeadOf`); numbers are written as PostgreSQL writes float8, the shortest text that reads back as
 * the same value (extra_float_digits 1, which every pool sets: `createPgPool`). `prefixParam` is the
 * placeholder of `fuelTypePrefix(fuel)`: written once here rather than by `to_json` for every row. The
 * time is cut to the millisecond before it becomes a float8, so that rounding it gives the millisecond
 * exactly (`extract` would give the same through numeric arithmetic, which cost 4 ms of a 20,000-station
 * box).
 */
function featureTextSql(fuel: string, prefixParam: string): string {
  return fuel === EV_FUEL
    ? `s.feature_head || ${prefixParam}::text || '"EUR"' ||
        CASE WHEN s.power_kw IS NULL THEN '' ELSE ',"powerKw":' || s.power_kw END || '}}',
      NULL::float8`
    : `s.feature_head || ${prefixParam}::text || to_json(coalesce(p.currency, 'EUR'))::text || ',"price":' ||
        p.price || ',"reportedAt":"',
      round(date_part('epoch', date_trunc('milliseconds', p.reported_at)) * 1000)`;
}

/** The Feature text from the fuel's type up to its currency's value, for `featureTextSql`. */
const fuelTypePrefix = (fuel: string) => `,"fuelType":${JSON.stringify(fuel)},"currency":`;

/**
 * `feature_head` from a row's columns: `t` names the row, `id` the station's id, `lon` and `lat` its
 * coordinates as float8. The fields object ends with a string (the city), so `rtrim` takes off only its
 * closing brace.
 */
const featureHeadOf = (t: string, id: string, lon: string, lat: string) =>
  `'{"type":"Feature","geometry":{"type":"Point","coordinates":[' || ${lon} || ',' || ${lat} ||
    ']},"properties":' || rtrim(json_build_object('id', ${id}, 'externalId', ${t}.external_id,
    'country', ${t}.country, 'name', ${t}.name, 'brand', ${t}.brand, 'address', ${t}.address,
    'city', ${t}.city)::text, '}')`;

/** The newest price's columns as the JSON rows read them (the time in milliseconds). */
const PRICE_VALUES = 'p.price, p.currency, (extract(epoch FROM p.reported_at) * 1000)::float8';

/**
 * Columns, join and filter of the fuel selection; `fuelParam` is the placeholder of the fuel code. The join
 * finds each station's newest price for the fuel with one probe of the price index per station: the shape
 * for a few thousand stations (nearest, corridor).
 */
function selection(
  fuel: string,
  fuelParam: string,
): { columns: string; prices: string; join: string; where: string } {
  return fuel === EV_FUEL
    ? {
        columns: `${COLUMNS}, NULL::float8 AS price, NULL::text AS currency, NULL::timestamptz AS reported_at`,
        prices: 'NULL::float8, NULL::text, NULL::float8',
        join: '',
        // The fuel parameter is sent either way; naming it here gives it a type.
        where: `${EV_TYPES} AND ${fuelParam}::text IS NULL`,
      }
    : {
        columns: `${COLUMNS}, p.price, p.currency, p.reported_at`,
        prices: PRICE_VALUES,
        join: `JOIN LATERAL (
            SELECT q.price, q.currency, q.reported_at FROM prices q
            WHERE q.station_id = s.id AND q.fuel = ${fuelParam}
            ORDER BY q.reported_at DESC, q.id DESC LIMIT 1) p ON true`,
        where: 'true',
      };
}

/**
 * The same selection for a box, whose answer can be 20,000 stations. A station's id begins with its sample
 * key (migration 003), so stations by id and prices by station id are both walked in sample-key order and
 * merged, and the first price of each station in that walk is its newest (DISTINCT ON): no station is
 * probed. For a small box the planner probes instead, where that is cheaper. Two stations with the same
 * sample key (31 bits: a few pairs in 200,000) are ordered by the random rest of their ids here and by
 * their identity on SQLite: the same data still gives the same selection every time.
 */
function boxSelection(
  fuel: string,
  fuelParam: string,
): { columns: string; prices: string; distinct: string; join: string; where: string; order: string } {
  if (fuel === EV_FUEL) {
    const { columns, prices, where } = selection(fuel, fuelParam);
    return { columns, prices, distinct: '', join: '', where, order: 's.id' };
  }
  return {
    columns: `${COLUMNS}, p.price, p.currency, p.reported_at`,
    prices: PRICE_VALUES,
    distinct: 'DISTINCT ON (s.id)',
    join: `JOIN prices p ON p.station_id = s.id AND p.fuel = ${fuelParam}`,
    where: 'true',
    order: 's.id, p.reported_at DESC, p.id DESC',
  };
}

function toRow(raw: RawRow): StationRow {
  return {
    id: raw.id,
    externalId: raw.external_id,
    country: raw.country,
    type: raw.station_type,
    name: raw.name,
    brand: raw.brand,
    address: raw.address,
    city: raw.city,
    lon: raw.lon,
    lat: raw.lat,
    powerKw: raw.power_kw,
    price: raw.price,
    currency: raw.currency,
    reportedAt: raw.reported_at,
  };
}

/**
 * Prices per statement of a replace. Each statement joins its prices to the country's stations, which the
 * planner does by hashing them all: 10,000 per statement hashed a 100,000-station country 40 times per
 * run (0.5 s of a 7 s ingest); 100,000 hashes it 4 times, and the arrays stay a few MB.
 */
const PRICE_BATCH = 100_000;

export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<FuelStore> {
  const pool = createPgPool(url, {
    max: options.maxConnections ?? 10,
    // These are short queries whose planner costs look high (20,000-row answers); compiling them with JIT
    // costs more than it saves, and so does starting parallel workers (5 ms of a 6 ms nearest search).
    options: '-c jit=off -c max_parallel_workers_per_gather=0',
  });
  try {
    if (options.migrate ?? true) await migrateFuel({ backend: 'postgresql', pool });
    else await pool.query('SELECT 1');
  } catch (error) {
    await pool.end();
    throw error;
  }
  return new PostgresFuelStore(pool);
}

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

async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Runs a query and hands each row (as an array) to `each` as the driver reads it, keeping none: a
 * 20,000-row answer held as rows until it was written made the process's minor collections copy it
 * (FeatureRuns).
 */
async function forEachRow<R extends unknown[]>(
  pool: pg.Pool,
  config: pg.QueryConfig,
  each: (row: R) => void,
): Promise<void> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const arrays: pg.QueryArrayConfig = { ...config, rowMode: 'array' };
      const query = new pg.Query<R>(arrays);
      query.on('row', each);
      query.on('end', () => resolve());
      query.on('error', reject);
      client.query(query);
    });
  } catch (error) {
    // As the pool's own query does: a client whose query failed is not given to the next caller.
    failure = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(failure);
  }
}

class PostgresFuelStore implements FuelStore, StationRowReads {
  readonly backend = 'postgresql' as const;
  private closed = false;

  /** The stations' positions for the corridor search, by the `stations_version` they were read at. */
  private readonly positions = new VersionedPositions<string>();

  constructor(private readonly pool: pg.Pool) {}

  async stationsInBox({ bbox, fuel, limit }: BoxQuery): Promise<BoxResult> {
    const { columns, distinct, join, where, order } = boxSelection(fuel, '$5');
    const { rows } = await this.pool.query<RawRow>(
      `SELECT ${distinct} ${columns} FROM stations s ${join}
       WHERE s.geom && ST_MakeEnvelope($1, $2, $3, $4, 4326) AND ${where}
       ORDER BY ${order} LIMIT $6`,
      [...bbox, fuel === EV_FUEL ? null : fuel, limit + 1],
    );
    return { stations: rows.slice(0, limit).map(toRow), truncated: rows.length > limit };
  }

  /**
   * The server writes each Feature up to its price's time, this process the time (`to_char` for it alone
   * took the server about 40 ms of a 20,000-row answer). Two values a row instead of seven: building the
   * Features here from seven columns spent 52–60 ms of a 140–150 ms answer collecting the garbage, this
   * way 13–18 ms of 100 (scripts/bench/README.md, fuel decisions).
   */
  async stationFeaturesInBox({ bbox, fuel, limit }: BoxQuery): Promise<FeatureTexts> {
    const { distinct, join, where, order } = boxSelection(fuel, '$5');
    const runs = new FeatureRuns(limit);
    await forEachRow<[string, number | null]>(
      this.pool,
      {
        text: `SELECT ${distinct} ${featureTextSql(fuel, '$7')} FROM stations s ${join}
          WHERE s.geom && ST_MakeEnvelope($1, $2, $3, $4, 4326) AND ${where}
          ORDER BY ${order} LIMIT $6`,
        values: [...bbox, fuel === EV_FUEL ? null : fuel, limit + 1, fuelTypePrefix(fuel)],
      },
      ([text, reportedAt]) => runs.add(finishFeatureText(text, reportedAt)),
    );
    return runs.result();
  }

  /** The nearest stations with a price for the fuel, in widening circles (nearest.ts), as on SQLite. */
  async nearestStations({ lon, lat, radiusKm, fuel, limit }: NearestQuery): Promise<NearestRow[]> {
    return nearestInWideningCircles(radiusKm, limit, (circleKm) =>
      this.nearestWithin({ lon, lat, radiusKm: circleKm, fuel, limit }),
    );
  }

  private async nearestWithin({ lon, lat, radiusKm, fuel, limit }: NearestQuery): Promise<NearestRow[]> {
    const { columns, join, where } = selection(fuel, '$5');
    // The stations of the radius in order of distance first, then their newest prices, until `limit` have
    // one: a few price probes instead of one per station of the radius (about 2,000 in a city).
    // OFFSET 0 keeps the ordered subquery whole.
    const { rows } = await this.pool.query<RawRow & { distance_km: number }>(
      `WITH here AS (SELECT ST_SetSRID(ST_MakePoint($1, $2), 4326)::geography AS g)
       SELECT ${columns}, s.distance_km
       FROM (
         SELECT s.*, ST_Distance(s.geom::geography, here.g, false) / 1000 AS distance_km
         FROM here, stations s
         WHERE ST_DWithin(s.geom::geography, here.g, $3::float8 * 1000, false) AND ${where}
         ORDER BY distance_km, s.country, s.external_id OFFSET 0) s ${join}
       ORDER BY s.distance_km, s.country, s.external_id LIMIT $4`,
      [lon, lat, radiusKm, limit, fuel === EV_FUEL ? null : fuel],
    );
    return rows.map((row) => ({ ...toRow(row), distanceKm: row.distance_km }));
  }

  /**
   * Candidates come from the stations' positions in memory (positions.ts), measured on the sphere in
   * corridor.ts, the same way as on SQLite; only the stations that pass are read with their latest price,
   * each row with its place in the batch (`WITH ORDINALITY`).
   */
  async stationsAlongLine(query: CorridorQuery): Promise<CorridorResult> {
    const { columns, join, where } = selection(query.fuel, '$2');
    return searchCorridor(
      await this.corridorSource(async (ids) => {
        const { rows } = await this.pool.query<RawRow & { place: number }>(
          `SELECT ${columns}, k.place::int AS place
           FROM unnest(string_to_array($1, ',')::uuid[]) WITH ORDINALITY AS k(id, place) JOIN stations s ON s.id = k.id ${join}
           WHERE ${where}`,
          [ids, query.fuel === EV_FUEL ? null : query.fuel],
        );
        return rows.map((row) => [row.place - 1, toRow(row)]);
      }),
      query,
    );
  }

  async stationFeaturesAlongLine(query: CorridorQuery): Promise<FeatureTexts> {
    const { join, where } = selection(query.fuel, '$2');
    type Raw = [number, string, string, number, number, string, number | null];
    type Read = Placed & { text: string; reportedAt: number | null };
    const { stations, truncated } = await searchCorridor(
      await this.corridorSource(async (ids) => {
        const { rows } = await this.pool.query<Raw>({
          text: `SELECT k.place::int, s.country, s.external_id, ST_X(s.geom), ST_Y(s.geom),
              ${featureTextSql(query.fuel, '$3')}
            FROM unnest(string_to_array($1, ',')::uuid[]) WITH ORDINALITY AS k(id, place)
              JOIN stations s ON s.id = k.id ${join}
            WHERE ${where}`,
          values: [ids, query.fuel === EV_FUEL ? null : query.fuel, fuelTypePrefix(query.fuel)],
          rowMode: 'array',
        });
        return rows.map(([place, country, externalId, lon, lat, text, reportedAt]): [number, Read] => [
          place - 1,
          { country, externalId, lon, lat, text, reportedAt },
        ]);
      }),
      query,
    );
    return {
      runs: featureRunsOf(stations, (s) => finishFeatureTextAlong(s.text, s.reportedAt, s.routeFraction)),
      count: stations.length,
      truncated,
    };
  }

  /**
   * The corridor search over the stations' positions in memory; `detail` reads a batch of stations by id,
   * each row with its place in the batch. The ids are sent as one text, separated by commas: the driver's
   * writing of an array parameter (quoting each element) cost about 3 ms of a 5,000-station search.
   */
  private async corridorSource<R extends Placed>(
    detail: (ids: string) => Promise<[number, R][]>,
  ): Promise<CorridorSource<R>> {
    const index = await this.stationPositions();
    return {
      positions: index,
      rows: async (places) => {
        // In the order of the places, which is the order the stations were read in (the table's): the rows
        // are fetched from the table's pages in order.
        const sorted = Int32Array.from(places).sort();
        const found = new Map<number, R>();
        for (const [at, row] of await detail(Array.from(sorted, (place) => index.keyAt(place)).join(',')))
          found.set(sorted[at] as number, row);
        return found;
      },
    };
  }

  /**
   * The stations' positions, read again when `stations_version` (migration 005) has moved since they were
   * read (VersionedPositions).
   */
  private async stationPositions(): Promise<StationPositions<string>> {
    const { rows } = await this.pool.query<{ version: string }>('SELECT version::text FROM stations_version');
    return this.positions.at(rows[0]?.version ?? '', () => this.readPositions());
  }

  /**
   * Every station's position, each row handed over as the driver reads it: collected first, 1,000,000 rows
   * and their index held every request for 0.3–0.4 s at the end of the read (scripts/bench/README.md,
   * fuel decisions); now the index alone does.
   */
  private async readPositions(): Promise<StationPositions<string>> {
    const positions = new PositionsBuilder<string>();
    await forEachRow<[string, number, number]>(
      this.pool,
      { text: 'SELECT id::text, ST_X(geom), ST_Y(geom) FROM stations' },
      ([id, lon, lat]) => positions.add(id, lon, lat),
    );
    return positions.finish();
  }

  async stats(): Promise<StoreStats> {
    const { rows } = await this.pool.query<{
      country: string;
      stations: string;
      prices: string;
      last: Date | null;
    }>(
      `WITH st AS (SELECT country, count(*) AS n FROM stations GROUP BY country),
            pr AS (SELECT s.country, count(*) AS n, max(p.reported_at) AS last
                   FROM prices p JOIN stations s ON s.id = p.station_id GROUP BY s.country)
       SELECT st.country, st.n AS stations, coalesce(pr.n, 0) AS prices, pr.last
       FROM st LEFT JOIN pr ON pr.country = st.country
       ORDER BY st.n DESC, st.country`,
    );
    const countries = rows.map((r) => ({
      code: r.country,
      stations: Number(r.stations),
      prices: Number(r.prices),
      lastUpdate: r.last,
    }));
    return {
      totals: {
        stations: countries.reduce((sum, c) => sum + c.stations, 0),
        prices: countries.reduce((sum, c) => sum + c.prices, 0),
      },
      countries,
    };
  }

  async upsertStations(stations: StationInput[], options: UpsertOptions = {}): Promise<UpsertResult> {
    const failedBatches: FailedBatch[] = [];
    let count = 0;
    // In sample-key order, as on SQLite (input.ts): a first import lays the rows out in the order of their ids,
    // which is the order a crowded box reads them in.
    for (const batch of batchesOf(inSampleKeyOrder(stations), options.batchSize ?? DEFAULT_BATCH_SIZE)) {
      const s = dedupeStations(batch.items);
      try {
        await this.pool.query(
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

  async replacePrices(
    source: string,
    country: string,
    prices: PriceInput[],
    options: ReplacePricesOptions = {},
  ): Promise<ReplacePricesResult> {
    const mine = prices.filter((p) => p.country === country);
    const history = options.history ?? true;
    const now = new Date();
    return inTransaction(this.pool, async (client) => {
      const deleteOld = `DELETE FROM prices p USING stations s
        WHERE p.station_id = s.id AND p.source = $1 AND s.country = $2`;
      let deleted: number;
      /**
       * The prices that differ from this source's previous price for the station, fuel and currency: those
       * that had one (their station is in the store: the delete found it) and those that had none.
       */
      let changed: PriceInput[] = [];
      let first: PriceInput[] = [];
      if (history) {
        // The old prices go, and come back to be matched with the new ones by key (price-diff.ts), as on
        // SQLite. Probing the price index for each new price instead cost as much as the rest of the
        // replace; updating rows in place, SQLite's way, is slower here than deleting and inserting them
        // (an update writes a new row version and an entry in every index; bench README).
        const currencies = currencySlots(mine);
        const stationNumber = new Map<string, number>();
        const newKeys = new Float64Array(mine.length);
        for (const [j, price] of mine.entries()) {
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
        for (const [j, price] of mine.entries()) {
          const i = previousOf[j] as number;
          if (i < 0) first.push(price);
          else if (previous.prices[i] !== price.price) changed.push(price);
        }
      } else {
        deleted = (await client.query(deleteOld, [source, country])).rowCount ?? 0;
      }
      const given = `unnest($3::text[], $4::text[], $5::float8[], $6::text[], $7::timestamptz[]) AS u(e, f, p, cur, at)`;
      // Each statement matches its prices to the country's stations by external id, and only prices of
      // a station in the store are written, to the history too.
      const matched = `FROM ${given} JOIN stations s ON s.external_id = u.e AND s.country = $2`;
      const columns = (p: PriceInput[]) => [
        source,
        country,
        p.map((x) => x.externalId),
        p.map((x) => x.fuel),
        p.map((x) => x.price),
        p.map((x) => x.currency),
        p.map((x) => x.reportedAt ?? now),
      ];
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
        (p) =>
          `${where}${escapeCopyText(p.externalId)}\t${escapeCopyText(p.fuel)}\t${p.price}\t` +
          `${escapeCopyText(p.currency)}${by}${(p.reportedAt ?? now).toISOString()}\n`,
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
      for (const batch of batchesOf(mine, PRICE_BATCH)) {
        const result = await client.query(
          `INSERT INTO prices (station_id, fuel, price, currency, reported_at, source)
           SELECT s.id, u.f, u.p, u.cur, u.at, $1 ${matched}`,
          columns(batch.items),
        );
        inserted += result.rowCount ?? 0;
      }
      return { inserted, skipped: prices.length - inserted, deleted };
    });
  }

  async deleteOrphanFuelStations(country: string): Promise<number> {
    const result = await this.pool.query(
      `DELETE FROM stations s WHERE s.country = $1 AND s.station_type = 'fuel'
       AND NOT EXISTS (SELECT 1 FROM prices p WHERE p.station_id = s.id)`,
      [country],
    );
    return result.rowCount ?? 0;
  }

  async deleteStationsBySource(
    source: string,
    country: string,
    options: DeleteBySourceOptions = {},
  ): Promise<number> {
    const result = await this.pool.query(
      `DELETE FROM stations s WHERE s.country = $1 AND s.source = $2
       AND NOT EXISTS (SELECT 1 FROM unnest($3::text[]) AS keep(id) WHERE keep.id = s.external_id)`,
      [country, source, [...(options.exceptExternalIds ?? [])]],
    );
    return result.rowCount ?? 0;
  }

  async countStationsBySource(source: string, country: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM stations WHERE country = $1 AND source = $2',
      [country, source],
    );
    return Number(rows[0]?.n ?? 0);
  }

  async hasStation(country: string, externalId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'SELECT 1 FROM stations WHERE country = $1 AND external_id = $2',
      [country, externalId],
    );
    return (rowCount ?? 0) > 0;
  }

  async priceHistory(query: HistoryQuery): Promise<PriceChangeRow[]> {
    const { rows } = await this.pool.query<{
      external_id: string;
      price: number;
      currency: string;
      source: string;
      changed_at: Date;
    }>(
      `SELECT h.external_id, h.price, h.currency, h.source, h.changed_at FROM price_history h
       WHERE h.country = $1 AND h.fuel = $2 AND ($4::text IS NULL OR h.external_id = $4)
         AND (h.changed_at >= $3 OR h.changed_at = (
           SELECT max(o.changed_at) FROM price_history o
           WHERE o.country = h.country AND o.external_id = h.external_id AND o.fuel = h.fuel
             AND o.changed_at < $3))
       ORDER BY h.external_id, h.changed_at, h.id`,
      [query.country, query.fuel, query.since, query.externalId ?? null],
    );
    return rows.map((row) => ({
      externalId: row.external_id,
      price: row.price,
      currency: row.currency,
      source: row.source,
      changedAt: row.changed_at,
    }));
  }

  async prunePriceHistory(country: string, before: Date | null): Promise<number> {
    if (before === null)
      return (await this.pool.query('DELETE FROM price_history WHERE country = $1', [country])).rowCount ?? 0;
    const result = await this.pool.query(
      `DELETE FROM price_history h
       WHERE h.country = $1 AND h.changed_at < $2 AND EXISTS (
         SELECT 1 FROM price_history n
         WHERE n.country = h.country AND n.external_id = h.external_id AND n.fuel = h.fuel
           AND n.changed_at < $2 AND (n.changed_at > h.changed_at OR (n.changed_at = h.changed_at AND n.id > h.id)))`,
      [country, before],
    );
    return result.rowCount ?? 0;
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
