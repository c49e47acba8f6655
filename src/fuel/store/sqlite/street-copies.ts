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
 * A zoom-14 tile holding at least this many stations gets a copy for each fuel. A live read is two random
 * page reads a station, one after the other, besides the R*Tree's: from disk, tiles of 56-62 stations took
 * 100-198 ms and tiles of 28-31 stations 42-246 ms (scripts/bench/README.md). At 10,000,000 stations, 33,676
 * tiles and 5,351,482 stations are copied; the copy pass reads every station of the fuel once whatever the
 * line, so a lower line costs the copies' bytes, not reads.
 */
export const STREET_COPY_FROM = 32;

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

/**
 * The copies of the fuel's street tiles among `tiles` (denseStreetTiles), in the build's read transaction:
 * one pass over the fuel's stations in the file's order, the dense tiles' rows grouped by SQLite's sorter
 * (which spills to a temporary file past its memory). Reading each tile through the R*Tree instead is two
 * random page reads a station, as a live read is: at 10,000,000 stations and the line of 128, 261.4 s for
 * one fuel against 33.7 s for this pass, with most of the file in the page cache (scripts/bench/README.md). A station belongs to the zoom-14 tile of its world units,
 * the tile placeInTile puts it in at zoom 14 and above. A dense tile without a station of the fuel gets an
 * empty copy: read live it would still read the row of each of its stations.
 */
export function streetCopiesOf(
  c: SqliteConnection,
  fuel: string,
  tiles: readonly number[],
): { tile: number; rows: Buffer }[] {
  if (tiles.length === 0) return [];
  const dense = new Set(tiles);
  const shift = UNIT_BITS - STREET_ZOOM;
  c.db.function('street_copy_tile', { deterministic: true }, (lon, lat) => {
    const [ux, uy] = worldUnits(lon as number, lat as number);
    const tile = streetKey(ux >>> shift, uy >>> shift);
    return dense.has(tile) ? tile : null;
  });
  const ev = fuel === EV_FUEL;
  const rows = c
    .prepare(
      `SELECT street_copy_tile(s.lon, s.lat) AS tile, ${STREET_COLUMNS},
              ${ev ? 'NULL, NULL, NULL' : 'p.price, p.currency, p.reported_at'}
       ${
         ev
           ? "FROM stations s WHERE s.station_type IN ('ev_charger', 'both') AND @fuel IS NOT NULL"
           : 'FROM latest_prices p JOIN stations s ON s.seq = p.station_seq WHERE p.fuel = @fuel'
       }
         AND tile IS NOT NULL
       ORDER BY tile`,
    )
    .raw()
    .iterate({ fuel }) as IterableIterator<unknown[]>;
  const copies: { tile: number; rows: Buffer }[] = [];
  const copy = (tile: number, of: unknown[][]) => {
    const rows = deflateRawSync(JSON.stringify(of), { level: 1 });
    // A copy shorter than zlib's 16 KB chunk is a view of that chunk: kept as such, every small copy of
    // the build would hold 16 KB until the write.
    copies.push({ tile, rows: rows.byteLength < rows.buffer.byteLength ? Buffer.from(rows) : rows });
  };
  const withoutStations = new Set(tiles);
  let tile = -1;
  let group: unknown[][] = [];
  for (const row of rows) {
    const of = row[0] as number;
    if (of !== tile) {
      if (group.length > 0) copy(tile, group);
      withoutStations.delete(of);
      tile = of;
      group = [];
    }
    group.push(row.slice(1));
  }
  if (group.length > 0) copy(tile, group);
  for (const empty of withoutStations) copy(empty, []);
  return copies;
}
