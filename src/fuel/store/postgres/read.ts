/**
 * The PostgreSQL store's reads: the map's box, the nearest stations, the stations along a line, the figures.
 */
import { type Placed, searchCorridor } from '../corridor';
import { finishFeatureText, finishFeatureTextAlong } from '../feature-format';
import { FeatureRuns, featureRunsOf } from '../feature-text';
import { type FirstCircle, nearestInWideningCircles } from '../nearest';
import {
  type BoxQuery,
  type BoxResult,
  type CorridorQuery,
  type CorridorResult,
  EV_FUEL,
  type FeatureTexts,
  type NearestQuery,
  type NearestRow,
  type PlaceRow,
  type StationRow,
  type StationType,
  type StoreStats,
} from '../store';
import { forEachRow, type PostgresConnection } from './connection';
import { featureTextSql, fuelTypePrefix } from './features';
import { corridorSource } from './positions';

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

export async function stationsInBox(
  c: PostgresConnection,
  { bbox, fuel, limit }: BoxQuery,
): Promise<BoxResult> {
  const { columns, distinct, join, where, order } = boxSelection(fuel, '$5');
  const { rows } = await c.pool.query<RawRow>(
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
export async function stationFeaturesInBox(
  c: PostgresConnection,
  { bbox, fuel, limit }: BoxQuery,
): Promise<FeatureTexts> {
  const { distinct, join, where, order } = boxSelection(fuel, '$5');
  const runs = new FeatureRuns(limit);
  await forEachRow<[string, number | null]>(
    c.pool,
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

/** The nearest search's first circle (a round trip each: nearest.ts). */
const FIRST_CIRCLE: FirstCircle = { share: 1 / 64, leastKm: 0.1 };

/** The nearest stations with a price for the fuel, in widening circles (nearest.ts), as on SQLite. */
export async function nearestStations(
  c: PostgresConnection,
  { lon, lat, radiusKm, fuel, limit }: NearestQuery,
): Promise<NearestRow[]> {
  return nearestInWideningCircles(radiusKm, limit, FIRST_CIRCLE, (circleKm) =>
    nearestWithin(c, { lon, lat, radiusKm: circleKm, fuel, limit }),
  );
}

async function nearestWithin(
  c: PostgresConnection,
  { lon, lat, radiusKm, fuel, limit }: NearestQuery,
): Promise<NearestRow[]> {
  const { columns, join, where } = selection(fuel, '$5');
  // The stations of the radius in order of distance first, then their newest prices, until `limit` have
  // one: a few price probes instead of one per station of the radius (about 2,000 in a city).
  // OFFSET 0 keeps the ordered subquery whole.
  const { rows } = await c.pool.query<RawRow & { distance_km: number }>(
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
export async function stationsAlongLine(
  c: PostgresConnection,
  query: CorridorQuery,
): Promise<CorridorResult> {
  const { columns, join, where } = selection(query.fuel, '$2');
  return searchCorridor(
    await corridorSource(c, async (ids) => {
      const { rows } = await c.pool.query<RawRow & { place: number }>(
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

export async function stationFeaturesAlongLine(
  c: PostgresConnection,
  query: CorridorQuery,
): Promise<FeatureTexts> {
  const { join, where } = selection(query.fuel, '$2');
  type Raw = [number, string, string, number, number, string, number | null];
  type Read = Placed & { text: string; reportedAt: number | null };
  const { stations, truncated } = await searchCorridor(
    await corridorSource(c, async (ids) => {
      const { rows } = await c.pool.query<Raw>({
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

export async function stats(c: PostgresConnection): Promise<StoreStats> {
  const { rows } = await c.pool.query<{
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

export async function countStationsBySource(
  c: PostgresConnection,
  source: string,
  country: string,
): Promise<number> {
  const { rows } = await c.pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM stations WHERE country = $1 AND source = $2',
    [country, source],
  );
  return Number(rows[0]?.n ?? 0);
}

export async function hasStation(
  c: PostgresConnection,
  country: string,
  externalId: string,
): Promise<boolean> {
  const { rowCount } = await c.pool.query('SELECT 1 FROM stations WHERE country = $1 AND external_id = $2', [
    country,
    externalId,
  ]);
  return (rowCount ?? 0) > 0;
}

export async function searchPlaces(c: PostgresConnection, text: string, limit: number): Promise<PlaceRow[]> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const { rows: towns } = await c.pool.query<PlaceRow>(
    `SELECT max(city) AS city, NULL AS address, country, avg(ST_X(geom)) AS lon, avg(ST_Y(geom)) AS lat
     FROM stations WHERE city <> '' AND lower(city) LIKE $1
     GROUP BY lower(city), country ORDER BY count(*) DESC, lower(city) LIMIT $2`,
    [pattern, limit],
  );
  if (towns.length >= limit) return towns;
  const { rows: addresses } = await c.pool.query<PlaceRow>(
    `SELECT city, address, country, ST_X(geom) AS lon, ST_Y(geom) AS lat FROM stations
     WHERE lower(address) LIKE $1 ORDER BY id LIMIT $2`,
    [pattern, limit - towns.length],
  );
  return [...towns, ...addresses];
}

export async function ping(c: PostgresConnection): Promise<void> {
  await c.pool.query('SELECT 1');
}
