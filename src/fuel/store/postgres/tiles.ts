/**
 * The PostgreSQL store's vector tiles, made in the database: the tile's stations (with their newest price
 * for the fuel, as the box reads them), placed and grouped as model/tiles.ts says, written out by PostGIS's
 * own encoder, ST_AsMVT. Only the finished tile crosses the connection, however many stations it holds.
 */
import { CLUSTER_GRID, MAX_MERCATOR_LAT, STREET_ZOOM, TILE_EXTENT, tileSearchBox } from '../../model/tiles';
import { EV_FUEL, type TileQuery } from '../store';
import type { PostgresConnection } from './connection';

/**
 * The stations of the tile for the fuel ($1 zoom, $2 column, $3 row, $4-$7 the search box, $8 the fuel), each
 * with `gx` and `gy`, its place as a fraction of the tile, computed as model/tiles.ts placeInTile does.
 */
function placed(fuel: string): string {
  const eps = '2.220446049250313e-16';
  const stations =
    fuel === EV_FUEL
      ? `SELECT s.*, NULL::float8 AS price, NULL::text AS currency, NULL::timestamptz AS reported_at
         FROM stations s
         WHERE s.geom && ST_MakeEnvelope($4, $5, $6, $7, 4326)
           AND s.station_type IN ('ev_charger', 'both') AND $8::text IS NOT NULL`
      : `SELECT DISTINCT ON (s.id) s.*, p.price, p.currency, p.reported_at
         FROM stations s JOIN prices p ON p.station_id = s.id AND p.fuel = $8
         WHERE s.geom && ST_MakeEnvelope($4, $5, $6, $7, 4326)
         ORDER BY s.id, p.reported_at DESC, p.id DESC`;
  return `WITH found AS (${stations}),
    world AS (
      SELECT f.*, least((ST_X(f.geom) + 180) / 360, 1 - ${eps}) AS fx,
        greatest(0, least(0.5 - ln((1 + sin(radians(f.clat))) / (1 - sin(radians(f.clat)))) / (4 * pi()), 1 - ${eps})) AS fy
      FROM (SELECT found.*, greatest(-${MAX_MERCATOR_LAT}, least(${MAX_MERCATOR_LAT}, ST_Y(found.geom))) AS clat
            FROM found) f),
    placed AS (
      SELECT w.*, w.fx * 2 ^ $1::int - $2::int AS gx, w.fy * 2 ^ $1::int - $3::int AS gy FROM world w)
    SELECT *, floor(gx * ${TILE_EXTENT} + 0.5) AS px, floor(gy * ${TILE_EXTENT} + 0.5) AS py,
      floor(gy * ${CLUSTER_GRID}) * ${CLUSTER_GRID} + floor(gx * ${CLUSTER_GRID}) AS cell
    FROM placed WHERE gx >= 0 AND gx < 1 AND gy >= 0 AND gy < 1`;
}

function clusterTile(fuel: string): string {
  return `WITH inside AS (${placed(fuel)})
    SELECT coalesce(ST_AsMVT(t, 'clusters', ${TILE_EXTENT}, 'geom'), ''::bytea) AS tile FROM (
      SELECT ST_MakePoint(floor(avg(px) + 0.5), floor(avg(py) + 0.5)) AS geom, count(*)::int AS count,
        min(price) AS cheapest, percentile_cont(0.5) WITHIN GROUP (ORDER BY price) AS median,
        CASE WHEN count(DISTINCT currency) = 1 THEN min(currency) END AS currency
      FROM inside GROUP BY cell ORDER BY cell) t`;
}

function stationTileSql(fuel: string): string {
  return `WITH inside AS (${placed(fuel)})
    SELECT coalesce(ST_AsMVT(t, 'stations', ${TILE_EXTENT}, 'geom'), ''::bytea) AS tile FROM (
      SELECT ST_MakePoint(px, py) AS geom, id::text AS "id", external_id AS "externalId", country, name,
        brand, address, city, $8::text AS "fuelType", ${fuel === EV_FUEL ? "'EUR'" : 'currency'} AS currency,
        price, (extract(epoch FROM reported_at) * 1000)::bigint AS "reportedAt", power_kw AS "powerKw"
      FROM inside ORDER BY country COLLATE "C", external_id COLLATE "C") t`;
}

export async function stationTile(c: PostgresConnection, query: TileQuery): Promise<Uint8Array> {
  const { fuel, z, x, y } = query;
  const text = z >= STREET_ZOOM ? stationTileSql(fuel) : clusterTile(fuel);
  const { rows } = await c.pool.query<{ tile: Buffer }>(text, [z, x, y, ...tileSearchBox(query), fuel]);
  const tile = rows[0]?.tile;
  return tile ? new Uint8Array(tile.buffer, tile.byteOffset, tile.byteLength) : new Uint8Array();
}
