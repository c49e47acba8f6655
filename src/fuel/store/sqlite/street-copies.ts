/**
 * The SQLite store's street tiles: their stations read through the R*Tree with their rows and newest prices,
 * and, for the densest zoom-14 tiles, a copy of those very rows written by each build (migration 009). A
 * street tile's stations are a row and a price each at random places of the file (the stations are in
 * sample-key order): from disk, the densest tile at 10,000,000 stations (3,280 stations with a price of one
 * fuel) took 0.5-1.2 s, its reads one after the other (scripts/bench/README.md, vector tiles). A copy is a
 * few neighbouring pages. It answers only while the map is at the version its build read, so a
 * tile is never older than the stations: after any write the tiles are read live until the next build.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { STREET_ZOOM, tileSearchBox, UNIT_BITS, worldUnits } from '../../model/tiles';
import { EV_FUEL, type TileQuery } from '../store';
import type { SqliteConnection } from './connection';

/**
 * A zoom-14 tile holding at least this many stations gets a copy for each fuel. A live read is two random
 * page reads a station, one after the other: this disk answers about 6,500 a second that way, so 400
 * stations are about 120 ms from disk (scripts/bench/README.md).
 */
export const STREET_COPY_FROM = 400;

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
    .get(query.fuel, streetKey(query.x >>> shift, query.y >>> shift)) as Uint8Array | undefined;
  if (copy) return JSON.parse(inflateRawSync(copy).toString('utf8')) as unknown[][];
  return tileRows(c, query, STREET_COLUMNS);
}

/**
 * The zoom-14 tiles whose live read is long: those holding at least `from` stations of any kind, all of
 * which a tile of any fuel reads (from the R*Tree's own copy of the positions, one pass; a station on a
 * tile's edge may count in its neighbour, which only moves the line a little).
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

/** The copies of the fuel's street tiles among `tiles` (denseStreetTiles), read live: in the build's read transaction. */
export function streetCopiesOf(
  c: SqliteConnection,
  fuel: string,
  tiles: readonly number[],
): { tile: number; rows: Buffer }[] {
  const copies: { tile: number; rows: Buffer }[] = [];
  for (const tile of tiles) {
    const x = tile % 2 ** STREET_ZOOM;
    const y = Math.floor(tile / 2 ** STREET_ZOOM);
    const rows = [...tileRows(c, { fuel, z: STREET_ZOOM, x, y }, STREET_COLUMNS)];
    if (rows.length > 0) copies.push({ tile, rows: deflateRawSync(JSON.stringify(rows), { level: 1 }) });
  }
  return copies;
}
