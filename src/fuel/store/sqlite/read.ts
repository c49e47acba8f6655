/**
 * The SQLite store's reads: the map's box, the nearest stations, the stations along a line, the figures.
 */
import { radiusBoxes } from '../../geo/boxes';
import { greatCircleKm } from '../../geo/sphere';
import { searchCorridor } from '../corridor';
import { finishFeatureText, finishFeatureTextAlong } from '../feature-format';
import { featureRunsOf } from '../feature-text';
import { type FirstCircle, nearestInWideningCircles } from '../nearest';
import {
  type BBox,
  type BoxQuery,
  type BoxResult,
  type CorridorQuery,
  type CorridorResult,
  EV_FUEL,
  type FeatureTexts,
  type LonLat,
  type NearestQuery,
  type NearestRow,
  type PlaceRow,
  type StationRow,
  type StationType,
  type StoreStats,
} from '../store';
import type { SqliteConnection } from './connection';
import { featureJson } from './features';
import { corridorSource } from './positions';

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

/** A box with this many times more stations than asked for is walked in sample-key order. */
const CROWDED_FACTOR = 2;

/**
 * How far the R*Tree's float32 copy of a point can lie from the stored point, with room to spare: one
 * float32 step at 180° is about 1.7 m.
 */
const FLOAT32_SLACK_KM = 0.01;

const boxParams = ([minLon, minLat, maxLon, maxLat]: BBox) => ({ minLon, minLat, maxLon, maxLat });

/** Points in the box, counted up to `cap` (the count stops there). */
function pointsInBox(c: SqliteConnection, bbox: BBox, cap: number): number {
  return c
    .prepare(
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
export async function stationsInBox(c: SqliteConnection, query: BoxQuery): Promise<BoxResult> {
  const { columns } = selection(query.fuel);
  const raw = boxRows(c, query, columns) as RawRow[];
  return { stations: raw.slice(0, query.limit).map(toRow), truncated: raw.length > query.limit };
}

export async function stationFeaturesInBox(c: SqliteConnection, query: BoxQuery): Promise<FeatureTexts> {
  const rows = boxRows(c, query, featureJson(query.fuel)) as [string, number | null][];
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
function boxRows(c: SqliteConnection, { bbox, fuel, limit }: BoxQuery, columns: string): unknown[][] {
  const { join, where } = selection(fuel);
  const wanted = limit + 1;
  const cap = CROWDED_FACTOR * wanted;
  const crowded = pointsInBox(c, bbox, cap) >= cap;
  const source = crowded
    ? 'stations s INDEXED BY stations_sample_key'
    : 'stations_rtree r JOIN stations s ON s.seq = r.seq';
  const inBox = crowded ? 's.lon BETWEEN @minLon AND @maxLon AND s.lat BETWEEN @minLat AND @maxLat' : IN_BOX;
  return c
    .prepare(
      `SELECT ${columns} FROM ${source} ${join} WHERE ${inBox} AND ${where}
     ORDER BY s.sample_key, s.country, s.external_id LIMIT @limit`,
    )
    .raw()
    .all({ ...boxParams(bbox), fuel, limit: wanted }) as unknown[][];
}

/** The nearest search's first circle (in process: nearest.ts). */
const FIRST_CIRCLE: FirstCircle = { share: 1 / 256, leastKm: 0.025 };

/**
 * The nearest stations with a price for the fuel. The search starts in a small circle and widens it four
 * times at a time up to the radius asked for, stopping as soon as `limit` stations lie inside: any station
 * outside the circle is farther than all of them. In each circle, candidates come from the R*Tree alone
 * (its float32 coordinates), ordered by their distance in process; stations are then read nearest first,
 * a batch at a time, until `limit` have the fuel, plus every candidate that could still tie or beat the
 * last of them once measured on the stored coordinates. Only those few rows are joined to their price.
 */
export async function nearestStations(
  c: SqliteConnection,
  { lon, lat, radiusKm, fuel, limit }: NearestQuery,
): Promise<NearestRow[]> {
  return nearestInWideningCircles(radiusKm, limit, FIRST_CIRCLE, (circleKm) =>
    nearestWithin(c, [lon, lat], circleKm, fuel, limit),
  );
}

function nearestWithin(
  c: SqliteConnection,
  centre: LonLat,
  radiusKm: number,
  fuel: string,
  limit: number,
): NearestRow[] {
  const inBox = c
    .prepare(
      `SELECT seq, (min_lon + max_lon) / 2, (min_lat + max_lat) / 2 FROM stations_rtree
     WHERE max_lon >= @minLon AND min_lon <= @maxLon AND max_lat >= @minLat AND min_lat <= @maxLat`,
    )
    .raw();
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
  const details = c
    .prepare(
      `SELECT ${columns} FROM json_each(@seqs) j JOIN stations s ON s.seq = j.value ${join} WHERE ${where}`,
    )
    .raw();
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

export async function stationsAlongLine(c: SqliteConnection, query: CorridorQuery): Promise<CorridorResult> {
  const { columns, join, where } = selection(query.fuel);
  const details = c
    .prepare(
      `SELECT ${columns}, j.key FROM json_each(@seqs) j JOIN stations s ON s.seq = j.value ${join}
     WHERE ${where}`,
    )
    .raw();
  return searchCorridor(
    await corridorSource(c, query.fuel, details, (row: RawRow) => [row[15] as number, toRow(row)]),
    query,
  );
}

export async function stationFeaturesAlongLine(
  c: SqliteConnection,
  query: CorridorQuery,
): Promise<FeatureTexts> {
  const { join, where } = selection(query.fuel);
  const details = c
    .prepare(
      `SELECT j.key, s.country, s.external_id, s.lon, s.lat, ${featureJson(query.fuel)}
     FROM json_each(@seqs) j JOIN stations s ON s.seq = j.value ${join} WHERE ${where}`,
    )
    .raw();
  type Raw = [number, string, string, number, number, string, number | null];
  const { stations, truncated } = await searchCorridor(
    await corridorSource(
      c,
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

export async function stats(c: SqliteConnection): Promise<StoreStats> {
  const read = c.db.transaction(() => ({
    stations: c.prepare('SELECT country, count(*) AS n FROM stations GROUP BY country').all() as {
      country: string;
      n: number;
    }[],
    prices: c
      .prepare(
        `SELECT s.country, count(*) AS n, max(p.reported_at) AS last
       FROM prices p JOIN stations s ON s.seq = p.station_seq GROUP BY s.country`,
      )
      .all() as { country: string; n: number; last: number | null }[],
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

export async function countStationsBySource(
  c: SqliteConnection,
  source: string,
  country: string,
): Promise<number> {
  return c
    .prepare('SELECT count(*) FROM stations WHERE country = ? AND source = ?')
    .pluck()
    .get(country, source) as number;
}

export async function hasStation(c: SqliteConnection, country: string, externalId: string): Promise<boolean> {
  return (
    c.prepare('SELECT 1 FROM stations WHERE country = ? AND external_id = ?').get(country, externalId) !==
    undefined
  );
}

export async function searchPlaces(c: SqliteConnection, text: string, limit: number): Promise<PlaceRow[]> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const towns = c
    .prepare(
      `SELECT max(city) AS city, NULL AS address, country, avg(lon) AS lon, avg(lat) AS lat FROM stations
       WHERE city <> '' AND lower(city) LIKE @pattern ESCAPE '\\'
       GROUP BY lower(city), country ORDER BY count(*) DESC, lower(city) LIMIT @limit`,
    )
    .all({ pattern, limit }) as PlaceRow[];
  if (towns.length >= limit) return towns;
  const addresses = c
    .prepare(
      `SELECT city, address, country, lon, lat FROM stations
       WHERE lower(address) LIKE @pattern ESCAPE '\\' ORDER BY sample_key LIMIT @limit`,
    )
    .all({ pattern, limit: limit - towns.length }) as PlaceRow[];
  return [...towns, ...addresses];
}

export async function ping(c: SqliteConnection): Promise<void> {
  c.prepare('SELECT 1').get();
}
