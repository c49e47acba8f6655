/**
 * The PostgreSQL store's vector tiles, made in the database: the tile's stations (with their newest price
 * for the fuel, as the box reads them), placed and grouped as model/tiles.ts says, written out by PostGIS's
 * own encoder, ST_AsMVT. Only the finished tile crosses the connection, however many stations it holds.
 */
import {
  CLUSTER_GRID,
  MAX_MERCATOR_LAT,
  placeKeyRange,
  STREET_ZOOM,
  TILE_EXTENT,
  tileSearchBox,
  UNIT_BITS,
} from '../../model/tiles';
import { EV_FUEL, type TileQuery } from '../store';
import { tableClusterTile } from './clusters';
import type { PostgresConnection } from './connection';

/** The stations for the fuel with their newest price ($8 the fuel), optionally inside an envelope. */
export function fuelStations(fuel: string, envelope: string | null): string {
  const inside = envelope ? `s.geom && ${envelope}` : 'true';
  return fuel === EV_FUEL
    ? `SELECT s.*, NULL::float8 AS price, NULL::text AS currency, NULL::timestamptz AS reported_at
       FROM stations s
       WHERE ${inside} AND s.station_type IN ('ev_charger', 'both') AND $8::text IS NOT NULL`
    : `SELECT DISTINCT ON (s.id) s.*, p.price, p.currency, p.reported_at
       FROM stations s JOIN prices p ON p.station_id = s.id AND p.fuel = $8
       WHERE ${inside}
       ORDER BY s.id, p.reported_at DESC, p.id DESC`;
}

/** The search box of a tile's query ($4-$7). */
const SEARCH_BOX = 'ST_MakeEnvelope($4, $5, $6, $7, 4326)';

/**
 * The stations of a street tile for the fuel with their newest price ($4-$7 the search box, $8 the fuel, $9
 * and $10 the tile's place keys): the stations inside the box, and the fuel's prices in the tile's range of
 * place keys (migration 011), each read in one index range and joined in memory (the densest street tile
 * measured, in central Rome, holds 3,657). A cluster tile read from the stations (before a fuel's first
 * build) reads them as the box does.
 */
function streetStations(fuel: string): string {
  return fuel === EV_FUEL
    ? `${fuelStations(fuel, SEARCH_BOX)}
         -- Charge points have no prices to range over; every parameter still needs a type.
         AND $9::bigint IS NOT NULL AND $10::bigint IS NOT NULL`
    : // Materialized, the box's stations keep their estimate (the tile's bounds above would make it one
      // row), so the two are hashed together: looping over the prices per station cost 1.1 s of CPU at
      // 3,600 stations.
      `WITH s AS MATERIALIZED (SELECT * FROM stations s WHERE s.geom && ${SEARCH_BOX}),
         p AS MATERIALIZED (
           SELECT DISTINCT ON (q.station_id) q.station_id, q.price, q.currency, q.reported_at
           FROM prices q WHERE q.fuel = $8 AND q.place_key >= $9 AND q.place_key < $10
           ORDER BY q.station_id, q.reported_at DESC, q.id DESC)
       SELECT s.*, p.price, p.currency, p.reported_at FROM s JOIN p ON p.station_id = s.id`;
}

/**
 * `found`'s rows with `fx` and `fy` (the position as a fraction of the world, as model/tiles.ts
 * worldFraction computes it) and `ux` and `uy` (its units, worldUnits).
 */
export function inUnits(found: string): string {
  const eps = '2.220446049250313e-16';
  return `SELECT w.*, floor(w.fx * 2 ^ ${UNIT_BITS}) AS ux, floor(w.fy * 2 ^ ${UNIT_BITS}) AS uy FROM (
      SELECT f.*, least((ST_X(f.geom) + 180) / 360, 1 - ${eps}) AS fx,
        greatest(0, least(0.5 - ln((1 + sin(radians(f.clat))) / (1 - sin(radians(f.clat)))) / (4 * pi()), 1 - ${eps})) AS fy
      FROM (SELECT found.*, greatest(-${MAX_MERCATOR_LAT}, least(${MAX_MERCATOR_LAT}, ST_Y(found.geom))) AS clat
            FROM (${found}) found) f) w`;
}

/**
 * The stations `found` reads for the tile ($1 zoom, $2 column, $3 row), each with `gx` and `gy`, its place as
 * a fraction of the tile, computed as model/tiles.ts placeInTile does.
 */
function placed(found: string): string {
  const world = inUnits(found);
  return `WITH world AS (${world}),
    placed AS (
      SELECT w.*, w.fx * 2 ^ $1::int - $2::int AS gx, w.fy * 2 ^ $1::int - $3::int AS gy FROM world w)
    SELECT *, floor(gx * ${TILE_EXTENT} + 0.5) AS px, floor(gy * ${TILE_EXTENT} + 0.5) AS py,
      floor(gy * ${CLUSTER_GRID}) * ${CLUSTER_GRID} + floor(gx * ${CLUSTER_GRID}) AS cell
    FROM placed WHERE gx >= 0 AND gx < 1 AND gy >= 0 AND gy < 1`;
}

/** A cluster's place in the tile from its units' sum (model/tiles.ts clusterPlace); $1 zoom. */
const clusterPlace = (sum: string, count: string, tile: string) =>
  `floor(${sum} / ${count} / 2 ^ (${UNIT_BITS - 12} - $1::int) + 0.5) - ${tile}::int * ${TILE_EXTENT}`;

/** The cells of `cells` (cell, count, sum_ux, sum_uy, cheapest, median, currency) as a cluster tile. */
export function clusterLayer(cells: string): string {
  return `SELECT coalesce(ST_AsMVT(t, 'clusters', ${TILE_EXTENT}, 'geom'), ''::bytea) AS tile FROM (
      SELECT ST_MakePoint(${clusterPlace('sum_ux', 'count', '$2')}, ${clusterPlace('sum_uy', 'count', '$3')}) AS geom,
        count::int AS count, cheapest::float8 AS cheapest, median::float8 AS median, currency::text AS currency
      FROM (${cells}) c ORDER BY cell) t`;
}

function clusterTile(fuel: string): string {
  return `WITH inside AS (${placed(fuelStations(fuel, SEARCH_BOX))})
    ${clusterLayer(`SELECT cell, count(*) AS count, sum(ux) AS sum_ux, sum(uy) AS sum_uy, min(price) AS cheapest,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY price) AS median,
        CASE WHEN count(DISTINCT currency) = 1 THEN min(currency) END AS currency
      FROM inside GROUP BY cell`)}`;
}

function stationTileSql(fuel: string): string {
  return `WITH inside AS (${placed(streetStations(fuel))})
    SELECT coalesce(ST_AsMVT(t, 'stations', ${TILE_EXTENT}, 'geom'), ''::bytea) AS tile FROM (
      SELECT ST_MakePoint(px, py) AS geom, external_id AS "externalId", country, name,
        brand, address, city, $8::text AS "fuelType", ${fuel === EV_FUEL ? "'EUR'" : 'currency'} AS currency,
        price, (extract(epoch FROM reported_at) * 1000)::bigint AS "reportedAt", power_kw AS "powerKw"
      FROM inside ORDER BY country COLLATE "C", external_id COLLATE "C") t`;
}

export async function stationTile(c: PostgresConnection, query: TileQuery): Promise<Uint8Array> {
  const { fuel, z, x, y } = query;
  const street = z >= STREET_ZOOM;
  const tile =
    (await tableClusterTile(c, query)) ??
    (
      await c.pool.query<{ tile: Buffer }>(street ? stationTileSql(fuel) : clusterTile(fuel), [
        z,
        x,
        y,
        ...tileSearchBox(query),
        fuel,
        ...(street ? placeKeyRange(query) : []),
      ])
    ).rows[0]?.tile;
  return tile ? new Uint8Array(tile.buffer, tile.byteOffset, tile.byteLength) : new Uint8Array();
}
