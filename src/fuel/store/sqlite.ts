/**
 * The embedded backend: one SQLite file (WAL) through better-sqlite3, an R*Tree over the station points,
 * great-circle distances computed in process. The synchronous driver sits behind the async interface.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { openSqlite } from '../../common/databases';
import { radiusBoxes } from '../geo/boxes';
import { greatCircleKm } from '../geo/sphere';
import { type CorridorSource, type Placed, searchCorridor } from './corridor';
import { featureRunsOf, finishFeatureText, finishFeatureTextAlong } from './feature-text';
import { batchesOf, DEFAULT_BATCH_SIZE, dedupeStations, errorMessage, inSampleKeyOrder } from './input';
import { migrateFuelSqlite } from './migrations';
import { nearestInWideningCircles } from './nearest';
import { PositionsBuilder, type StationPositions, VersionedPositions } from './positions';
import {
  CURRENCY_SLOTS,
  currencySlots,
  fuelSlotSql,
  matchPrices,
  NO_KEY,
  newPriceKey,
  STATION_KEYS,
} from './price-diff';
import { sampleKey } from './sample-key';
import {
  type BBox,
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
  type LonLat,
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

export interface SqliteStoreOptions {
  /** Apply pending migrations on open (default true). */
  migrate?: boolean;
  /**
   * The connection of the scrape thread: a small page cache and no memory map. A scrape writes most pages
   * once; with the readers' settings a 1,000,000-station ingest kept about 300 MB of them resident.
   */
  forScrapes?: boolean;
  /**
   * Stations whose positions one statement reads when the corridor search reads them again after a write
   * (default 50,000); the server answers other requests between two statements.
   */
  positionsPerRead?: number;
}

const POSITIONS_PER_READ = 50_000;

/**
 * One station row as an array in COLUMNS order (read in raw mode: a country-sized box returns 20,000 rows,
 * and arrays cost far less to build than objects); index 15 holds a query's extra column.
 */
type RawRow = [
  seq: number,
  id: string,
  externalId: string,
  country: string,
  type: StationType,
  name: string,
  brand: string | null,
  address: string,
  city: string,
  lon: number,
  lat: number,
  powerKw: number | null,
  price: number | null,
  currency: string | null,
  reportedAt: number | null,
  extra?: number,
];

const COLUMNS = `s.seq, s.id, s.external_id, s.country, s.station_type, s.name, s.brand, s.address, s.city,
  s.lon, s.lat, s.power_kw`;
const IN_BOX = `r.max_lon >= @minLon AND r.min_lon <= @maxLon AND r.max_lat >= @minLat AND r.min_lat <= @maxLat
  AND s.lon BETWEEN @minLon AND @maxLon AND s.lat BETWEEN @minLat AND @maxLat`;
const EV_TYPES = `s.station_type IN ('ev_charger', 'both')`;
/** The station's newest price for the fuel (kept by replacePrices, see migration 003). */
const LATEST_PRICE = 'JOIN latest_prices p ON p.station_seq = s.seq AND p.fuel = @fuel';

function selection(fuel: string): { columns: string; prices: string; join: string; where: string } {
  const prices =
    fuel === EV_FUEL
      ? 'NULL AS price, NULL AS currency, NULL AS reported_at'
      : 'p.price, p.currency, p.reported_at';
  return fuel === EV_FUEL
    ? { columns: `${COLUMNS}, ${prices}`, prices, join: '', where: EV_TYPES }
    : { columns: `${COLUMNS}, ${prices}`, prices, join: LATEST_PRICE, where: '1' };
}

/**
 * Two columns for `finishFeatureText` (feature-text.ts): the station as the GeoJSON Feature of the map's
 * answers (see FeatureTexts), up to the opening quote of its price's time, and that time in milliseconds
 * (NULL for chargers, whose text is whole). The text is the station's stored `feature_head` (migration 004),
 * then for a fuel the fuel asked for (`@fuel`), the latest price's currency and price, for chargers EUR and
 * the power when there is one. `json_quote` writes a number in the shortest form that reads back as the same
 * value, as JavaScript does, or with 17 digits. The time is written in this process, as on PostgreSQL:
 * `strftime` for it cost SQLite about 0.8 µs a row (scripts/bench/README.md, fuel decisions). (The price's
 * text stored with each price was tried: 15 ms less for a 20,000-station box, a second more for every
 * replace of 400,000 prices; README.)
 */
function featureJson(fuel: string): string {
  const head = `s.feature_head || ',"fuelType":' || json_quote(@fuel)`;
  return fuel === EV_FUEL
    ? `${head} || ',"currency":"EUR"' ||
       CASE WHEN s.power_kw IS NULL THEN '' ELSE ',"powerKw":' || json_quote(s.power_kw) END || '}}', NULL`
    : `${head} || ',"currency":' || json_quote(coalesce(p.currency, 'EUR')) || ',"price":' || json_quote(p.price) ||
       ',"reportedAt":"', p.reported_at`;
}

/**
 * `feature_head` (migration 004) from the upsert's parameters (`@name`, `@lon`, …), with the id, external id
 * and country given as SQL expressions: SQLite writes each number in the shortest form that reads back as
 * the same value, as JavaScript does, or with 17 digits. The object ends with a string (the city), so
 * `rtrim` takes off only its closing brace.
 */
function featureHeadSql(id: string, externalId: string, country: string): string {
  return `'{"type":"Feature","geometry":{"type":"Point","coordinates":' || json_array(@lon, @lat) ||
    '},"properties":' || rtrim(json_object('id', ${id}, 'externalId', ${externalId}, 'country', ${country},
    'name', @name, 'brand', @brand, 'address', @address, 'city', @city), '}')`;
}

/**
 * The places in `changes` (pairs of a price's place in `prices` and its time) in the order of the history's
 * station index (external id, then fuel): the rows of a run then fill its pages one after the other. Written
 * in the stations' order, they landed all over it: 40,000 rows and their commit took 420 ms, in this order
 * 300 (scripts/bench/README.md, fuel decisions).
 */
function inHistoryOrder(prices: PriceInput[], changes: number[]): number[] {
  const places = Array.from({ length: changes.length / 2 }, (_, k) => 2 * k);
  const idOf = (k: number) => (prices[changes[k] as number] as PriceInput).externalId;
  const fuelOf = (k: number) => (prices[changes[k] as number] as PriceInput).fuel;
  return places.sort((a, b) => {
    const [ia, ib] = [idOf(a), idOf(b)];
    if (ia !== ib) return ia < ib ? -1 : 1;
    const [fa, fb] = [fuelOf(a), fuelOf(b)];
    return fa === fb ? 0 : fa < fb ? -1 : 1;
  });
}

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

function toRow(r: RawRow): StationRow {
  return {
    id: r[1],
    externalId: r[2],
    country: r[3],
    type: r[4],
    name: r[5],
    brand: r[6],
    address: r[7],
    city: r[8],
    lon: r[9],
    lat: r[10],
    powerKw: r[11],
    price: r[12],
    currency: r[13],
    reportedAt: r[14] === null ? null : new Date(r[14]),
  };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

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

/** A box with this many times more stations than asked for is walked in sample-key order. */
const CROWDED_FACTOR = 2;

/**
 * How far the R*Tree's float32 copy of a point can lie from the stored point, with room to spare: one
 * float32 step at 180° is about 1.7 m.
 */
const FLOAT32_SLACK_KM = 0.01;

const boxParams = ([minLon, minLat, maxLon, maxLat]: BBox) => ({ minLon, minLat, maxLon, maxLat });

/** Opens an SQLite file with the settings every connection of this store uses (the common opener). */
export function openSqliteDatabase(
  file: string,
  options: Pick<SqliteStoreOptions, 'forScrapes'> = {},
): Database.Database {
  return openSqlite(file, {
    // A country-sized box reads 20,000 rows in random order: a page cache of 64 MB and a memory-mapped
    // file spare most of the read system calls (measured in scripts/bench/fuel.ts).
    pragmas: options.forScrapes
      ? ['cache_size = -16384', 'mmap_size = 0']
      : file === ':memory:'
        ? ['cache_size = -65536']
        : ['cache_size = -65536', 'mmap_size = 268435456'],
  });
}

export function openSqliteStore(file: string, options: SqliteStoreOptions = {}): FuelStore {
  const db = openSqliteDatabase(file, options);
  try {
    if (options.migrate ?? true) migrateFuelSqlite(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return new SqliteFuelStore(db, options.positionsPerRead ?? POSITIONS_PER_READ);
}

class SqliteFuelStore implements FuelStore, StationRowReads {
  readonly backend = 'sqlite' as const;
  private readonly statements = new Map<string, Database.Statement>();

  /** The stations' positions for the corridor search, by the file's version they were read at. */
  private readonly positions = new VersionedPositions<number>();

  constructor(
    private readonly db: Database.Database,
    private readonly positionsPerRead: number,
  ) {}

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Points in the box, counted up to `cap` (the count stops there). */
  private pointsInBox(bbox: BBox, cap: number): number {
    return this.prepare(
      `SELECT count(*) FROM (SELECT 1 FROM stations_rtree r
       WHERE r.max_lon >= @minLon AND r.min_lon <= @maxLon AND r.max_lat >= @minLat AND r.min_lat <= @maxLat
       LIMIT @cap)`,
    )
      .pluck()
      .get({ ...boxParams(bbox), cap }) as number;
  }

  /**
   * The rows with the smallest sample keys. A box holding few stations is searched through the R*Tree and
   * sorted; a box holding many more than `limit` is answered by walking the stations in sample-key order
   * and keeping those inside it, which stops after about `limit` rows instead of sorting them all.
   */
  async stationsInBox(query: BoxQuery): Promise<BoxResult> {
    const { columns } = selection(query.fuel);
    const raw = this.boxRows(query, columns) as RawRow[];
    return { stations: raw.slice(0, query.limit).map(toRow), truncated: raw.length > query.limit };
  }

  async stationFeaturesInBox(query: BoxQuery): Promise<FeatureTexts> {
    const rows = this.boxRows(query, featureJson(query.fuel)) as [string, number | null][];
    const count = Math.min(rows.length, query.limit);
    // Joined as the answer is written: the rows' texts are held until then either way, and runs made here
    // would be held beside them (scripts/bench/README.md, fuel decisions). The rows themselves are not:
    // each is an array and a boxed number more for every minor collection to copy.
    const texts = new Array<string>(count);
    const times = new Float64Array(count);
    for (let at = 0; at < count; at++) {
      const [text, reportedAt] = rows[at] as [string, number | null];
      texts[at] = text;
      times[at] = reportedAt ?? Number.NaN;
    }
    return {
      runs: featureRunsOf(texts, (text, at) => {
        const reportedAt = times[at] as number;
        return finishFeatureText(text, Number.isNaN(reportedAt) ? null : reportedAt);
      }),
      count,
      truncated: rows.length > count,
    };
  }

  /**
   * The box's rows (`columns` of stations `s` and their latest price), up to `limit + 1`, with the smallest
   * sample keys. A box holding few stations is searched through the R*Tree and sorted; a box holding many
   * more than `limit` is answered by walking the stations in sample-key order and keeping those inside it,
   * which stops after about `limit` rows instead of sorting them all.
   */
  private boxRows({ bbox, fuel, limit }: BoxQuery, columns: string): unknown[][] {
    const { join, where } = selection(fuel);
    const wanted = limit + 1;
    const cap = CROWDED_FACTOR * wanted;
    const crowded = this.pointsInBox(bbox, cap) >= cap;
    const source = crowded
      ? 'stations s INDEXED BY stations_sample_key'
      : 'stations_rtree r JOIN stations s ON s.seq = r.seq';
    const inBox = crowded
      ? 's.lon BETWEEN @minLon AND @maxLon AND s.lat BETWEEN @minLat AND @maxLat'
      : IN_BOX;
    return this.prepare(
      `SELECT ${columns} FROM ${source} ${join} WHERE ${inBox} AND ${where}
       ORDER BY s.sample_key, s.country, s.external_id LIMIT @limit`,
    )
      .raw()
      .all({ ...boxParams(bbox), fuel, limit: wanted }) as unknown[][];
  }

  /**
   * The nearest stations with a price for the fuel. The search starts in a small circle and widens it four
   * times at a time up to the radius asked for, stopping as soon as `limit` stations lie inside: any station
   * outside the circle is farther than all of them. In each circle, candidates come from the R*Tree alone
   * (its float32 coordinates), ordered by their distance in process; stations are then read nearest first,
   * a batch at a time, until `limit` have the fuel, plus every candidate that could still tie or beat the
   * last of them once measured on the stored coordinates. Only those few rows are joined to their price.
   */
  async nearestStations({ lon, lat, radiusKm, fuel, limit }: NearestQuery): Promise<NearestRow[]> {
    return nearestInWideningCircles(radiusKm, limit, (circleKm) =>
      this.nearestWithin([lon, lat], circleKm, fuel, limit),
    );
  }

  private nearestWithin(centre: LonLat, radiusKm: number, fuel: string, limit: number): NearestRow[] {
    const inBox = this.prepare(
      `SELECT seq, (min_lon + max_lon) / 2, (min_lat + max_lat) / 2 FROM stations_rtree
       WHERE max_lon >= @minLon AND min_lon <= @maxLon AND max_lat >= @minLat AND min_lat <= @maxLat`,
    ).raw();
    const seen = new Set<number>();
    const candidates: { seq: number; km: number }[] = [];
    for (const box of radiusBoxes(centre, radiusKm)) {
      for (const [seq, cLon, cLat] of inBox.all(boxParams(box)) as [number, number, number][]) {
        if (seen.has(seq)) continue;
        seen.add(seq);
        const km = greatCircleKm(centre, [cLon, cLat]);
        if (km <= radiusKm + FLOAT32_SLACK_KM) candidates.push({ seq, km });
      }
    }
    candidates.sort((a, b) => a.km - b.km);
    const { columns, join, where } = selection(fuel);
    const details = this.prepare(
      `SELECT ${columns} FROM json_each(@seqs) j JOIN stations s ON s.seq = j.value ${join} WHERE ${where}`,
    ).raw();
    const found: NearestRow[] = [];
    const compareFound = (a: NearestRow, b: NearestRow) =>
      a.distanceKm - b.distanceKm || compare(a.country, b.country) || compare(a.externalId, b.externalId);
    let next = 0;
    const batch = Math.max(32, limit * 2);
    while (next < candidates.length) {
      // Once `limit` are found, only candidates that could still come before the last of them are read.
      const bound =
        found.length >= limit
          ? (found.sort(compareFound)[limit - 1]?.distanceKm ?? Number.POSITIVE_INFINITY) + FLOAT32_SLACK_KM
          : Number.POSITIVE_INFINITY;
      const seqs: number[] = [];
      while (next < candidates.length && seqs.length < batch) {
        const candidate = candidates[next] as { seq: number; km: number };
        if (candidate.km > bound) break;
        seqs.push(candidate.seq);
        next++;
      }
      if (seqs.length === 0) break;
      for (const raw of details.all({ seqs: JSON.stringify(seqs), fuel }) as RawRow[]) {
        const row = toRow(raw);
        const distanceKm = greatCircleKm(centre, [row.lon, row.lat]);
        if (distanceKm <= radiusKm) found.push({ ...row, distanceKm });
      }
    }
    return found.sort(compareFound).slice(0, limit);
  }

  async stationsAlongLine(query: CorridorQuery): Promise<CorridorResult> {
    const { columns, join, where } = selection(query.fuel);
    const details = this.prepare(
      `SELECT ${columns}, j.key FROM json_each(@seqs) j JOIN stations s ON s.seq = j.value ${join}
       WHERE ${where}`,
    ).raw();
    return searchCorridor(
      await this.corridorSource(query.fuel, details, (row: RawRow) => [row[15] as number, toRow(row)]),
      query,
    );
  }

  async stationFeaturesAlongLine(query: CorridorQuery): Promise<FeatureTexts> {
    const { join, where } = selection(query.fuel);
    const details = this.prepare(
      `SELECT j.key, s.country, s.external_id, s.lon, s.lat, ${featureJson(query.fuel)}
       FROM json_each(@seqs) j JOIN stations s ON s.seq = j.value ${join} WHERE ${where}`,
    ).raw();
    type Raw = [number, string, string, number, number, string, number | null];
    const { stations, truncated } = await searchCorridor(
      await this.corridorSource(
        query.fuel,
        details,
        ([at, country, externalId, lon, lat, text, reportedAt]: Raw) => [
          at,
          { country, externalId, lon, lat, text, reportedAt },
        ],
      ),
      query,
    );
    return {
      runs: featureRunsOf(stations, (s) => finishFeatureTextAlong(s.text, s.reportedAt, s.routeFraction)),
      count: stations.length,
      truncated,
    };
  }

  /**
   * The corridor search over the stations' positions in memory (positions.ts): candidates with their exact
   * coordinates, keyed by their place in the index (small integers, where station numbers are above 2^31).
   * `details` reads the stations of a batch given as a JSON array of numbers (`@seqs`), each row with its
   * place in that array (`j.key`), which `entry` returns with the row.
   */
  private async corridorSource<Raw, R extends Placed>(
    fuel: string,
    details: Database.Statement,
    entry: (row: Raw) => [number, R],
  ): Promise<CorridorSource<R>> {
    const index = await this.stationPositions();
    return {
      positions: index,
      rows: async (places) => {
        const seqs = JSON.stringify(places.map((place) => index.keyAt(place)));
        const found = new Map<number, R>();
        for (const row of details.all({ seqs, fuel }) as Raw[]) {
          const [at, value] = entry(row);
          found.set(places[at] as number, value);
        }
        return found;
      },
    };
  }

  /**
   * The stations' positions, read again when the file has changed since they were read: `data_version`
   * moves when another connection commits (the scrape thread's, another process's), `total_changes()` when
   * this one writes (VersionedPositions).
   */
  private stationPositions(): Promise<StationPositions> {
    const version = this.prepare("SELECT total_changes() || ',' || data_version FROM pragma_data_version")
      .pluck()
      .get() as string;
    return this.positions.at(version, () => this.readPositions());
  }

  /**
   * Every station's position, `positionsPerRead` stations a statement in the order of their numbers, and the
   * server answering other requests between two statements: read in one, 1,000,000 stations held every
   * request for about 0.9 s (scripts/bench/README.md, fuel decisions). A write between two statements
   * moves the version, so the next search reads them again.
   */
  private async readPositions(): Promise<StationPositions> {
    const next = this.prepare('SELECT seq, lon, lat FROM stations WHERE seq > ? ORDER BY seq LIMIT ?').raw();
    const positions = new PositionsBuilder(
      this.prepare('SELECT count(*) FROM stations').pluck().get() as number,
    );
    for (let after = -1; ; ) {
      const read = next.all(after, this.positionsPerRead) as [number, number, number][];
      for (const [seq, lon, lat] of read) positions.add(seq, lon, lat);
      const last = read.at(-1);
      if (!last || read.length < this.positionsPerRead) break;
      after = last[0];
      await new Promise((resolve) => setImmediate(resolve));
    }
    return positions.finish();
  }

  async stats(): Promise<StoreStats> {
    const read = this.db.transaction(() => ({
      stations: this.prepare('SELECT country, count(*) AS n FROM stations GROUP BY country').all() as {
        country: string;
        n: number;
      }[],
      prices: this.prepare(
        `SELECT s.country, count(*) AS n, max(p.reported_at) AS last
         FROM prices p JOIN stations s ON s.seq = p.station_seq GROUP BY s.country`,
      ).all() as { country: string; n: number; last: number | null }[],
    }));
    const { stations, prices } = read();
    const priceByCountry = new Map(prices.map((p) => [p.country, p]));
    const countries = stations
      .map(({ country, n }) => {
        const p = priceByCountry.get(country);
        return {
          code: country,
          stations: n,
          prices: p?.n ?? 0,
          lastUpdate: p?.last == null ? null : new Date(p.last),
        };
      })
      .sort((a, b) => b.stations - a.stations || a.code.localeCompare(b.code));
    return {
      totals: {
        stations: countries.reduce((sum, c) => sum + c.stations, 0),
        prices: countries.reduce((sum, c) => sum + c.prices, 0),
      },
      countries,
    };
  }

  /**
   * A station already stored is updated only when one of its fields changed (most of a feed, every run,
   * is left alone; updated_at is when its fields last changed); a new one gets its number and its Feature
   * text (migrations 004 and 005), which are not computed for the others.
   */
  async upsertStations(stations: StationInput[], options: UpsertOptions = {}): Promise<UpsertResult> {
    const stored = this.prepare(
      'SELECT 1 FROM stations WHERE external_id = @externalId AND country = @country',
    );
    const fields = ['station_type', 'name', 'brand', 'address', 'city', 'lon', 'lat', 'power_kw', 'source'];
    const values = '@type, @name, @brand, @address, @city, @lon, @lat, @powerKw, @source';
    const update = this.prepare(
      `UPDATE stations SET (${fields.join(', ')}, updated_at) = (${values}, @now),
         feature_head = ${featureHeadSql('id', 'external_id', 'country')}
       WHERE external_id = @externalId AND country = @country AND (${fields.join(', ')}) IS NOT (${values})`,
    );
    // A new station's number is the next free one of its sample key's place (migration 005).
    const seq = `coalesce((SELECT max(seq) + 1 FROM stations
      WHERE seq BETWEEN @sampleKey * ${SEQ_PER_KEY} AND @sampleKey * ${SEQ_PER_KEY} + ${SEQ_PER_KEY - 1}),
      @sampleKey * ${SEQ_PER_KEY})`;
    const insert = this.prepare(
      `INSERT INTO stations (seq, id, external_id, country, ${fields.join(', ')}, sample_key, created_at,
         updated_at, feature_head)
       VALUES (${seq}, @id, @externalId, @country, ${values}, @sampleKey, @now, @now,
         ${featureHeadSql('@id', '@externalId', '@country')})`,
    );
    const failedBatches: FailedBatch[] = [];
    let count = 0;
    for (const batch of batchesOf(inSampleKeyOrder(stations), options.batchSize ?? DEFAULT_BATCH_SIZE)) {
      // Each batch is its own short transaction; between them the server answers its requests.
      await new Promise((resolve) => setImmediate(resolve));
      const now = Date.now();
      const unique = dedupeStations(batch.items);
      const write = this.db.transaction(() => {
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
            update.run(row);
          } else {
            row.id = randomUUID();
            row.sampleKey = sampleKey(s.country, s.externalId);
            insert.run(row);
          }
        }
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

  async replacePrices(
    source: string,
    country: string,
    prices: PriceInput[],
    options: ReplacePricesOptions = {},
  ): Promise<ReplacePricesResult> {
    const now = Date.now();
    const history = options.history ?? true;
    const replace = this.db.transaction(() => {
      const currencySlot = currencySlots(prices);
      // The country's stations by external id, read row by row, and not at all when no price is given (a
      // charger register of 1,000,000 stations).
      // The stations numbered in the order of their seq: the price keys' station numbers (price-diff.ts
      // wants numbers close together; a seq holds the station's sample key, migration 005), and the order
      // the prices are written in. `seqAt` is sorted, so a seq finds its number by bisection.
      const numberOf = new Map<string, number>();
      const seqAt: number[] = [];
      if (prices.some((price) => price.country === country)) {
        const rows = this.prepare('SELECT external_id, seq FROM stations WHERE country = ? ORDER BY seq')
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
      for (const [j, price] of prices.entries()) {
        const number = price.country === country ? numberOf.get(price.externalId) : undefined;
        seqOf[j] = number === undefined ? -1 : (seqAt[number] as number);
        keys[j] = newPriceKey(number, price, currencySlot);
        order[j] = (number ?? seqAt.length) * PRICES_PER_RUN + j;
      }
      numberOf.clear();
      const previous = this.previousPrices(source, country, [...currencySlot.keys()], seqAt);
      const { previousOf, leftover } = matchPrices(previous.keys, previous.rowids, keys);

      const remove = this.prepare('DELETE FROM prices WHERE rowid = ?');
      for (const i of leftover) remove.run(previous.rowids[i]);
      const update = this.prepare('UPDATE prices SET price = ?, reported_at = ? WHERE rowid = ?');
      const insert = this.prepare(
        `INSERT INTO prices (station_seq, fuel, price, currency, reported_at, source)
         VALUES (?, ?, ?, ?, ?, ?)`,
      );
      let inserted = 0;
      let written = leftover.length;
      /** The prices that changed, as their place in `prices` and their time, for the history. */
      const changes: number[] = [];
      // In the order of the stations' numbers, the order of the price index and of the prices first
      // written: a feed lists its stations in its own order, and rows written in that order land all over
      // the tables (migration 005). Each station's prices keep the order they were given in.
      // Past PRICES_PER_RUN prices they are written in the order given.
      const sorted = prices.length < PRICES_PER_RUN;
      if (sorted) order.sort();
      for (let n = 0; n < order.length; n++) {
        const j = sorted ? (order[n] as number) % PRICES_PER_RUN : n;
        const price = prices[j] as PriceInput;
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
        if (history && changed) changes.push(j, at);
      }
      const remember = this.prepare(
        `INSERT INTO price_history (country, external_id, fuel, price, currency, source, changed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const k of inHistoryOrder(prices, changes)) {
        const price = prices[changes[k] as number] as PriceInput;
        remember.run(
          country,
          price.externalId,
          price.fuel,
          price.price,
          price.currency,
          source,
          changes[k + 1],
        );
      }
      // A run that changed nothing (every price as stored, with its time) leaves the newest prices as they are.
      if (written > 0) this.refreshLatestPrices(country);
      return { inserted, skipped: prices.length - inserted, deleted: previous.rowids.length };
    });
    return replace.immediate();
  }

  /**
   * This source's prices of the country (in no particular order; the row ids tell): row ids, keys (the
   * station by its place in `seqAt`, sorted; see price-diff.ts), prices and times. Five JSON arrays of one row
   * parse far faster than 400,000 rows (0.2 against 0.7 s); 17 significant digits give back each price
   * exactly.
   */
  private previousPrices(
    source: string,
    country: string,
    currencies: string[],
    seqAt: number[],
  ): { rowids: number[]; keys: number[]; prices: number[]; times: number[] } {
    const currencySql = currencies.map((_, i) => `WHEN @c${i} THEN ${i}`).join(' ');
    const slot = `${fuelSlotSql('p.fuel')} * ${CURRENCY_SLOTS}
      + ${currencySql ? `CASE p.currency ${currencySql} ELSE ${CURRENCY_SLOTS - 1} END` : CURRENCY_SLOTS - 1}`;
    const row = this.prepare(
      `SELECT '[' || group_concat(p.rowid) || ']', '[' || group_concat(p.station_seq) || ']',
         '[' || group_concat(${slot}) || ']', '[' || group_concat(printf('%!.17g', p.price)) || ']',
         '[' || group_concat(p.reported_at) || ']'
       FROM prices p JOIN stations s ON s.seq = p.station_seq
       WHERE p.source = @source AND s.country = @country`,
    )
      .raw()
      .get({ source, country, ...Object.fromEntries(currencies.map((c, i) => [`c${i}`, c])) }) as (
      | string
      | null
    )[];
    const [rowids = [], seqs = [], slots = [], prices = [], times = []] = row.map(
      (list) => JSON.parse(list ?? '[]') as number[],
    );
    const keys = seqs.map((seq, i) => {
      const station = bisect(seqAt, seq);
      return station < 0 ? NO_KEY : station * STATION_KEYS + (slots[i] as number);
    });
    return { rowids, keys, prices, times };
  }

  /**
   * The country's newest price per station and fuel, taken again from `prices` (other sources' prices for
   * the same station count too): newest first; among equal times, the row stored last (a price updated in
   * place keeps its row).
   */
  private refreshLatestPrices(country: string): void {
    this.prepare(
      'DELETE FROM latest_prices WHERE station_seq IN (SELECT seq FROM stations WHERE country = ?)',
    ).run(country);
    this.prepare(
      `INSERT INTO latest_prices (station_seq, fuel, price, currency, reported_at)
       SELECT p.station_seq, p.fuel, p.price, p.currency, p.reported_at
       FROM stations s JOIN prices p ON p.station_seq = s.seq
       WHERE s.country = ? AND p.rowid = (
         SELECT q.rowid FROM prices q WHERE q.station_seq = p.station_seq AND q.fuel = p.fuel
         ORDER BY q.reported_at DESC, q.rowid DESC LIMIT 1)`,
    ).run(country);
  }

  async deleteOrphanFuelStations(country: string): Promise<number> {
    return this.prepare(
      `DELETE FROM stations WHERE country = ? AND station_type = 'fuel'
       AND NOT EXISTS (SELECT 1 FROM prices p WHERE p.station_seq = stations.seq)`,
    ).run(country).changes;
  }

  async deleteStationsBySource(
    source: string,
    country: string,
    options: DeleteBySourceOptions = {},
  ): Promise<number> {
    const keep = JSON.stringify([...(options.exceptExternalIds ?? [])]);
    const remove = this.db.transaction(
      () =>
        this.prepare(
          `DELETE FROM stations WHERE country = ? AND source = ?
           AND external_id NOT IN (SELECT value FROM json_each(?))`,
        ).run(country, source, keep).changes,
    );
    return remove.immediate();
  }

  async countStationsBySource(source: string, country: string): Promise<number> {
    return this.prepare('SELECT count(*) FROM stations WHERE country = ? AND source = ?')
      .pluck()
      .get(country, source) as number;
  }

  async hasStation(country: string, externalId: string): Promise<boolean> {
    return (
      this.prepare('SELECT 1 FROM stations WHERE country = ? AND external_id = ?').get(
        country,
        externalId,
      ) !== undefined
    );
  }

  async priceHistory(query: HistoryQuery): Promise<PriceChangeRow[]> {
    const one = query.externalId !== undefined;
    const rows = this.prepare(
      `SELECT h.external_id, h.price, h.currency, h.source, h.changed_at FROM price_history h
       WHERE h.country = @country AND h.fuel = @fuel ${one ? 'AND h.external_id = @externalId' : ''}
         AND (h.changed_at >= @since OR h.changed_at = (
           SELECT max(o.changed_at) FROM price_history o
           WHERE o.country = h.country AND o.external_id = h.external_id AND o.fuel = h.fuel
             AND o.changed_at < @since))
       ORDER BY h.external_id, h.changed_at, h.rowid`,
    )
      .raw()
      .all({
        country: query.country,
        fuel: query.fuel,
        since: query.since.getTime(),
        ...(one ? { externalId: query.externalId } : {}),
      }) as [string, number, string, string, number][];
    return rows.map(([externalId, price, currency, source, at]) => ({
      externalId,
      price,
      currency,
      source,
      changedAt: new Date(at),
    }));
  }

  async prunePriceHistory(country: string, before: Date | null): Promise<number> {
    if (before === null)
      return this.prepare('DELETE FROM price_history WHERE country = ?').run(country).changes;
    const prune = this.db.transaction(
      () =>
        this.prepare(
          `DELETE FROM price_history WHERE rowid IN (
             SELECT h.rowid FROM price_history h
             WHERE h.country = @country AND h.changed_at < @before AND EXISTS (
               SELECT 1 FROM price_history n
               WHERE n.country = h.country AND n.external_id = h.external_id AND n.fuel = h.fuel
                 AND n.changed_at < @before
                 AND (n.changed_at > h.changed_at OR (n.changed_at = h.changed_at AND n.rowid > h.rowid))))`,
        ).run({ country, before: before.getTime() }).changes,
    );
    return prune.immediate();
  }

  async ping(): Promise<void> {
    this.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
