/**
 * The SQLite store's street tiles: their stations read through the R*Tree with their rows and newest prices,
 * and, for the zoom-14 tiles holding STREET_COPY_FROM stations or more, a copy of their rows written by each
 * build (migration 009). A street tile's stations are a row and a price each at random places of the file
 * (the stations are in sample-key order): from disk, the densest tile at 10,000,000 stations (3,280
 * stations with a price of one fuel) took 0.5-1.2 s, its reads one after the other (scripts/bench/README.md,
 * vector tiles). A copy is a few neighbouring pages. It answers only while the map is at the version its
 * build read, so a tile is never older than the stations: after any write the tiles are read live until
 * the next build.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { STREET_ZOOM, tileSearchBox, UNIT_BITS, worldUnits } from '../../model/tiles';
import { EV_FUEL, type TileQuery } from '../store';
import type { SqliteConnection } from './connection';

/**
 * A zoom-14 tile holding at least this many stations gets a copy for each fuel: every tile holding one. A
 * live read is two random page reads a station, one after the other, besides the R*Tree's, and from disk
 * its time follows the disk's moments more than the station count: at the line of 32, tiles of 28-31
 * stations took 42-246 ms, at 64 tiles of 56-62 took 100-198 ms. Copied, every tile measured at 10,000,000
 * stations took 0.4-78 ms from disk (scripts/bench/README.md). The copy pass reads every station of the
 * fuel once whatever the line, so a lower line costs the copies' bytes (1.4 GB at that size), not reads.
 * Tests set other lines.
 */
export const STREET_COPY_FROM = 1;

/** The columns of a street tile's station, then its price's three. */
const STREET_COLUMNS =
  's.lon, s.lat, s.external_id, s.country, s.name, s.brand, s.address, s.city, s.power_kw';

/** The stations of the tile's search box for the fuel: their columns, then the price's three. */
export function tileRows(
  c: SqliteConnection,
  { fuel, z, x, y }: TileQuery,
  columns: string,
): IterableIterator<unknown[]> {
  const [minLon, minLat, maxLon, maxLat] = tileSearchBox({ z, x, y });
  const ev = fuel === EV_FUEL;
  return c
    .prepare(
      `SELECT ${columns}, ${ev ? 'NULL, NULL, NULL' : 'p.price, p.currency, p.reported_at'}
       FROM stations_rtree r JOIN stations s ON s.seq = r.seq
       ${ev ? '' : 'JOIN latest_prices p ON p.station_seq = s.seq AND p.fuel = @fuel'}
       WHERE r.max_lon >= @minLon AND r.min_lon <= @maxLon AND r.max_lat >= @minLat AND r.min_lat <= @maxLat
         AND ${ev ? "s.station_type IN ('ev_charger', 'both') AND @fuel IS NOT NULL" : '1'}`,
    )
    .raw()
    .iterate({ minLon, minLat, maxLon, maxLat, fuel }) as IterableIterator<unknown[]>;
}

/** A zoom-14 tile's key in the copies: its row, then its column. */
const streetKey = (x: number, y: number) => y * 2 ** STREET_ZOOM + x;

/**
 * The street tile's rows (STREET_COLUMNS and the price's three, for the tile's search box): from the copy of
 * its zoom-14 tile when the fuel's last build is of the map as it is and made one, else read live. A tile of
 * a higher zoom reads its zoom-14 tile's copy; the caller keeps the stations inside the tile either way.
 */
export function streetRows(c: SqliteConnection, query: TileQuery): Iterable<unknown[]> {
  const shift = query.z - STREET_ZOOM;
  const copy = c
    .prepare(
      `SELECT k.rows FROM station_street_copies k
       JOIN station_cluster_builds b ON b.fuel = k.fuel
       JOIN map_version v ON v.version = b.version
       WHERE k.fuel = ? AND k.tile = ?`,
    )
    .pluck()
    .get(query.fuel, streetKey(query.x >>> shift, query.y >>> shift)) as string | Uint8Array | undefined;
  if (copy !== undefined) return copyRows(copy);
  return tileRows(c, query, STREET_COLUMNS);
}

/**
 * The zoom-14 tiles to copy: those holding at least `from` stations of any kind, all of which a live tile of
 * any fuel reads (from the R*Tree's own copy of the positions, one pass; a station on a tile's edge may
 * count in its neighbour, which only moves the line a little: a station in no copied tile is read live).
 */
export function denseStreetTiles(c: SqliteConnection, from: number): number[] {
  const counts = new Map<number, number>();
  const rows = c.prepare('SELECT min_lon, min_lat FROM stations_rtree').raw().iterate() as Iterable<
    [number, number]
  >;
  const shift = UNIT_BITS - STREET_ZOOM;
  for (const [lon, lat] of rows) {
    const [ux, uy] = worldUnits(lon, lat);
    const key = streetKey(ux >>> shift, uy >>> shift);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const dense: number[] = [];
  for (const [tile, count] of counts) if (count >= from) dense.push(tile);
  return dense.sort((a, b) => a - b);
}

/** Where a build puts a fuel's copies as it makes them, on its own connection (writeStreetCopies). */
const STAGE = 'temp.street_copy_stage';

/**
 * A copy's value: the rows' JSON as text while it is short (deflating a tile of a few stations saves little
 * and costs about 12 µs a copy, at 1,729,287 tiles a fuel), deflated as a blob past it.
 */
const DEFLATE_FROM = 1024;
const copyValue = (rows: unknown[][]): string | Buffer => {
  const json = JSON.stringify(rows);
  return json.length < DEFLATE_FROM ? json : deflateRawSync(json, { level: 1 });
};

/** A copy's rows, from its value (copyValue). */
export const copyRows = (value: string | Uint8Array): unknown[][] =>
  JSON.parse(typeof value === 'string' ? value : inflateRawSync(value).toString('utf8')) as unknown[][];

/**
 * Makes the copies of the fuel's street tiles among `tiles` (denseStreetTiles, sorted) in the build's read
 * transaction, into a temporary table of the build's connection (its writes take no lock on the file): one
 * pass over the fuel's stations in the file's order, the tiles' rows grouped by SQLite's sorter (which spills
 * to a temporary file past its memory). Reading each tile through the R*Tree instead is two random page reads
 * a station, as a live read is: at 10,000,000 stations and the line of 128, 261.4 s for one fuel against
 * 33.7 s for this pass, with most of the file in the page cache (scripts/bench/README.md). Held in memory
 * until the write, every tile's copies of one fuel would not fit beside the build's stations. A station
 * belongs to the zoom-14 tile of its world units, the tile placeInTile puts it in at zoom 14 and above. A
 * tile without a station of the fuel gets an empty copy: read live it would still read the row of each of
 * its stations.
 */
export function stageStreetCopies(c: SqliteConnection, fuel: string, tiles: readonly number[]): void {
  // The temporary file gives back the pages the stage frees when it is emptied (about 650 MB for one fuel
  // at 10,000,000 stations), instead of keeping them for the connection's life: set before its first table.
  c.db.exec('PRAGMA temp.auto_vacuum = FULL');
  c.db.exec(`CREATE TABLE IF NOT EXISTS ${STAGE} (tile INTEGER PRIMARY KEY, rows BLOB NOT NULL)`);
  c.db.exec(`DELETE FROM ${STAGE}`);
  if (tiles.length === 0) return;
  const dense = new Set(tiles);
  const shift = UNIT_BITS - STREET_ZOOM;
  c.db.function('street_copy_tile', { deterministic: true }, (lon, lat) => {
    const [ux, uy] = worldUnits(lon as number, lat as number);
    const tile = streetKey(ux >>> shift, uy >>> shift);
    return dense.has(tile) ? tile : null;
  });
  c.db.aggregate('street_copy_rows', {
    start: () => [] as unknown[][],
    step: (rows: unknown[][], ...row: unknown[]) => {
      rows.push(row);
      return rows;
    },
    result: copyValue,
    varargs: true,
  });
  const ev = fuel === EV_FUEL;
  c.prepare(
    `INSERT INTO ${STAGE} (tile, rows)
     SELECT tile, street_copy_rows(${STREET_COLUMNS}, ${ev ? 'NULL, NULL, NULL' : 's.price, s.currency, s.reported_at'})
     FROM (SELECT street_copy_tile(s.lon, s.lat) AS tile, ${STREET_COLUMNS}${ev ? '' : ', p.price, p.currency, p.reported_at'}
       ${
         ev
           ? "FROM stations s WHERE s.station_type IN ('ev_charger', 'both') AND @fuel IS NOT NULL"
           : 'FROM latest_prices p JOIN stations s ON s.seq = p.station_seq WHERE p.fuel = @fuel'
       }) AS s
     WHERE tile IS NOT NULL
     GROUP BY tile`,
  ).run({ fuel });
  // The tiles without a station of the fuel.
  c.prepare(`INSERT OR IGNORE INTO ${STAGE} (tile, rows) SELECT value, '[]' FROM json_each(?)`).run(
    JSON.stringify(tiles),
  );
}

/** In the build's write transaction: the fuel's copies become those stageStreetCopies made. */
export function writeStreetCopies(c: SqliteConnection, fuel: string): void {
  c.prepare('DELETE FROM station_street_copies WHERE fuel = ?').run(fuel);
  c.prepare(
    `INSERT INTO station_street_copies (fuel, tile, rows) SELECT ?, tile, rows FROM ${STAGE} ORDER BY tile`,
  ).run(fuel);
  c.db.exec(`DELETE FROM ${STAGE}`);
}
