/**
 * The PostgreSQL store's cluster table (migration 009, model/cluster-pyramid.ts) and its stations by zoom-13
 * tile (migration 010, model/tile-points.ts): their rebuild from the stations, and the cluster tiles they
 * answer. The version they are checked against moves by triggers.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { escapeCopyText, forEachStreamedCopyRow, unescapeCopyText } from '../../../common/copy-text';
import { buildClusterLevels, type ClusterLevel, type ClusterStations } from '../../model/cluster-pyramid';
import {
  CellTally,
  type ClusterCell,
  POINTS_ZOOM,
  packPoints,
  pointsKeyRange,
  tallyPoints,
} from '../../model/tile-points';
import { PYRAMID_MAX_ZOOM } from '../../model/tiles';
import { type ClusterRefresh, EV_FUEL, type TileQuery } from '../store';
import { inTransaction, type PostgresConnection } from './connection';
import { clusterLayer, fuelStations, inUnits } from './tiles';

export async function tileVersion(c: PostgresConnection): Promise<string> {
  const { rows } = await c.pool.query<{ at: string }>(
    "SELECT version || '.' || clusters_built AS at FROM map_version",
  );
  return rows[0]?.at ?? '';
}

/**
 * A fuel's stations as the builder reads them, in units computed by the same SQL as the live tiles', with
 * the version they are of: one repeatable-read transaction, the rows as COPY text.
 */
async function readFuel(
  c: PostgresConnection,
  fuel: string,
): Promise<{ version: number; stations: ClusterStations }> {
  const client = await c.pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await client.query<{ version: string }>('SELECT version FROM map_version');
    const version = Number(rows[0]?.version ?? 0);
    const columns = new StationColumns();
    const currencies = new Map<string, number>();
    // COPY takes no parameters: the fuel is written as a literal where the query's $8 stands.
    const found = fuelStations(fuel, null).replaceAll('$8', client.escapeLiteral(fuel));
    const copy = client.query(
      copyTo(`COPY (SELECT ux, uy, price, currency FROM (${inUnits(found)}) u) TO STDOUT`),
    );
    await forEachStreamedCopyRow(copy, 4, ([x, y, p, code]) => {
      const text = code === '\\N' || code === undefined ? null : (unescapeCopyText(code) ?? null);
      if (text !== null && !currencies.has(text)) currencies.set(text, currencies.size);
      columns.push(
        Number(x),
        Number(y),
        p === '\\N' ? Number.NaN : Number(p),
        text === null ? -1 : (currencies.get(text) as number),
      );
    });
    await client.query('COMMIT');
    return { version, stations: columns.finish([...currencies.keys()]) };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * A fuel's stations as they are read, in typed columns grown by doubling: with arrays of numbers grown by
 * push, then copied into typed arrays, a build at 10,000,000 stations peaked at 905 MB; with these, 690 MB.
 */
class StationColumns {
  private size = 0;
  private ux = new Uint32Array(1024);
  private uy = new Uint32Array(1024);
  private price = new Float64Array(1024);
  private currency = new Int32Array(1024);

  push(ux: number, uy: number, price: number, currency: number): void {
    if (this.size === this.ux.length) {
      const grown = <T extends Uint32Array | Float64Array | Int32Array>(column: T, bigger: T): T => {
        bigger.set(column);
        return bigger;
      };
      const length = 2 * this.size;
      this.ux = grown(this.ux, new Uint32Array(length));
      this.uy = grown(this.uy, new Uint32Array(length));
      this.price = grown(this.price, new Float64Array(length));
      this.currency = grown(this.currency, new Int32Array(length));
    }
    this.ux[this.size] = ux;
    this.uy[this.size] = uy;
    this.price[this.size] = price;
    this.currency[this.size] = currency;
    this.size++;
  }

  /** The columns as read (views of the grown arrays: a copy would hold both at once). */
  finish(currencies: string[]): ClusterStations {
    const n = this.size;
    return {
      ux: this.ux.subarray(0, n),
      uy: this.uy.subarray(0, n),
      price: this.price.subarray(0, n),
      currency: this.currency.subarray(0, n),
      currencies,
    };
  }
}

/** The cells as lines of COPY text for station_clusters. */
function* cellLines(fuel: string, levels: ClusterLevel[], currencies: readonly string[]): Generator<string> {
  const text = (value: number) => (Number.isNaN(value) ? '\\N' : String(value));
  let piece = '';
  for (const level of levels) {
    for (let k = 0; k < level.size; k++) {
      const cx = level.cx[k] as number;
      const cy = level.cy[k] as number;
      const currency = level.currency[k] as number;
      piece += `${escapeCopyText(fuel)}\t${level.z}\t${cx >>> 5}\t${cy >>> 5}\t${(cy & 31) * 32 + (cx & 31)}\t${level.count[k]}\t${level.sumUx[k]}\t${level.sumUy[k]}\t${text(level.cheapest[k] as number)}\t${text(level.median[k] as number)}\t${currency < 0 ? '\\N' : escapeCopyText(currencies[currency] as string)}\n`;
      if (piece.length >= 65_536) {
        yield piece;
        piece = '';
      }
    }
  }
  if (piece) yield piece;
}

/** The packed stations as lines of COPY text for station_tile_points (bytea in hex). */
function* pointLines(fuel: string, stations: ClusterStations): Generator<string> {
  let piece = '';
  for (const row of packPoints(stations)) {
    piece += `${escapeCopyText(fuel)}\t${row.key}\t${escapeCopyText(JSON.stringify(row.currencies))}\t\\\\x${Buffer.from(row.points.buffer, row.points.byteOffset, row.points.byteLength).toString('hex')}\n`;
    if (piece.length >= 65_536) {
      yield piece;
      piece = '';
    }
  }
  if (piece) yield piece;
}

export async function refreshStationClusters(c: PostgresConnection): Promise<ClusterRefresh> {
  const started = performance.now();
  const result: ClusterRefresh = { rebuilt: [], cells: 0, seconds: 0 };
  // Every fuel built from the current version: nothing to read (a fuel new since moved the version too).
  const state = await c.pool.query<{ current: boolean }>(
    `SELECT count(*) > 0 AND bool_and(b.version = v.version) AS current
     FROM station_cluster_builds b CROSS JOIN map_version v`,
  );
  if (state.rows[0]?.current) return result;
  const { rows } = await c.pool.query<{ fuel: string; current: boolean }>(
    `SELECT f.fuel, coalesce(b.version = v.version, false) AS current
     FROM (SELECT DISTINCT fuel FROM prices UNION SELECT '${EV_FUEL}') f
     CROSS JOIN map_version v LEFT JOIN station_cluster_builds b ON b.fuel = f.fuel ORDER BY f.fuel`,
  );
  for (const { fuel, current } of rows) {
    if (current) continue;
    const { version, stations } = await readFuel(c, fuel);
    const levels = buildClusterLevels(stations, PYRAMID_MAX_ZOOM);
    await inTransaction(c.pool, async (client) => {
      // Two processes building at once (a server's scrape thread, `fuel scrape`) take turns: the second's
      // delete then sees the first's cells.
      await client.query("SELECT pg_advisory_xact_lock(hashtext('specyard_fuel_station_clusters'))");
      await client.query('DELETE FROM station_clusters WHERE fuel = $1', [fuel]);
      await pipeline(
        Readable.from(cellLines(fuel, levels, stations.currencies)),
        client.query(copyFrom('COPY station_clusters FROM STDIN')),
      );
      await client.query('DELETE FROM station_tile_points WHERE fuel = $1', [fuel]);
      await pipeline(
        Readable.from(pointLines(fuel, stations)),
        client.query(copyFrom('COPY station_tile_points FROM STDIN')),
      );
      await client.query(
        `INSERT INTO station_cluster_builds (fuel, version) VALUES ($1, $2)
         ON CONFLICT (fuel) DO UPDATE SET version = excluded.version`,
        [fuel, version],
      );
      await client.query('UPDATE map_version SET clusters_built = clusters_built + 1');
    });
    result.rebuilt.push(fuel);
    result.cells += levels.reduce((sum, level) => sum + level.size, 0);
  }
  await c.pool.query(
    `WITH gone AS (DELETE FROM station_cluster_builds WHERE NOT (fuel = ANY ($1::text[])) RETURNING fuel),
       cells AS (DELETE FROM station_clusters WHERE fuel IN (SELECT fuel FROM gone)),
       points AS (DELETE FROM station_tile_points WHERE fuel IN (SELECT fuel FROM gone))
     UPDATE map_version SET clusters_built = clusters_built + 1 WHERE EXISTS (SELECT 1 FROM gone)`,
    [rows.map((r) => r.fuel)],
  );
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

/**
 * A cluster tile from the last build of the fuel (seconds behind a scrape while the next one runs), once
 * there is one ($1-$3 the tile, $4 the fuel); else null. Zooms up to PYRAMID_MAX_ZOOM read their cells in one
 * statement; the zooms above, up to POINTS_ZOOM, read the packed stations under the tile in one, group them
 * as the live tile groups them, and have them written out as the live tile is.
 */
export async function tableClusterTile(c: PostgresConnection, query: TileQuery): Promise<Buffer | null> {
  const { fuel, z, x, y } = query;
  if (z > POINTS_ZOOM) return null;
  if (z > PYRAMID_MAX_ZOOM) {
    const cells = await pointsClusters(c, query);
    return cells && (await cellsTile(c, query, cells));
  }
  const { rows } = await c.pool.query<{ tile: Buffer | null }>(
    `SELECT CASE WHEN EXISTS (SELECT 1 FROM station_cluster_builds WHERE fuel = $4) THEN (${clusterLayer(
      `SELECT cell, count, sum_ux, sum_uy, cheapest, median, currency FROM station_clusters
        WHERE fuel = $4 AND z = $1 AND tx = $2 AND ty = $3`,
    )}) END AS tile`,
    [z, x, y, fuel],
  );
  return rows[0]?.tile ?? null;
}

/** The tile's cells from the packed stations under it, or null before the fuel's first build (one snapshot). */
async function pointsClusters(
  c: PostgresConnection,
  { fuel, z, x, y }: TileQuery,
): Promise<ClusterCell[] | null> {
  const [from, to] = pointsKeyRange(z, x, y);
  const { rows } = await c.pool.query<{
    built: boolean;
    tile: string | null;
    currencies: string | null;
    points: Buffer | null;
  }>(
    `SELECT b.fuel IS NOT NULL AS built, p.tile, p.currencies, p.points
     FROM (SELECT $1::text AS fuel) f
     LEFT JOIN station_cluster_builds b ON b.fuel = f.fuel
     LEFT JOIN station_tile_points p ON b.fuel IS NOT NULL AND p.fuel = f.fuel AND p.tile >= $2 AND p.tile < $3`,
    [fuel, from, to],
  );
  if (!rows[0]?.built) return null;
  const tally = new CellTally(z, x, y);
  for (const row of rows) {
    if (row.points === null || row.tile === null) continue;
    tallyPoints(tally, {
      key: Number(row.tile),
      currencies: JSON.parse(row.currencies ?? '[]') as string[],
      points: row.points,
    });
  }
  return tally.result();
}

/** Cells as the tile ST_AsMVT writes of them, as for the live tile ($1-$3 the tile). */
async function cellsTile(
  c: PostgresConnection,
  { z, x, y }: TileQuery,
  cells: ClusterCell[],
): Promise<Buffer> {
  const column = <K extends keyof ClusterCell>(key: K) => cells.map((cell) => cell[key]);
  const { rows } = await c.pool.query<{ tile: Buffer }>(
    clusterLayer(
      `SELECT * FROM unnest($4::int[], $5::bigint[], $6::float8[], $7::float8[], $8::float8[], $9::float8[], $10::text[])
         AS c(cell, count, sum_ux, sum_uy, cheapest, median, currency)`,
    ),
    [
      z,
      x,
      y,
      column('cell'),
      column('count'),
      column('sumUx'),
      column('sumUy'),
      column('cheapest'),
      column('median'),
      column('currency'),
    ],
  );
  return rows[0]?.tile ?? Buffer.alloc(0);
}
