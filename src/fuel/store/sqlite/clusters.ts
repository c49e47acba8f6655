/**
 * The SQLite store's cluster table (migration 006, model/cluster-pyramid.ts), its stations by zoom-13 tile
 * (migration 007, model/tile-points.ts) and its copies of the street tiles (009, street-copies.ts):
 * the version every write that changes the map moves, their rebuild from the stations, and the cluster
 * tiles they answer.
 */
import { buildClusterLevels, type ClusterStations } from '../../model/cluster-pyramid';
import {
  CellTally,
  type ClusterCell,
  POINTS_ZOOM,
  packPoints,
  pointsKeyRange,
  tallyPoints,
} from '../../model/tile-points';
import { PYRAMID_MAX_ZOOM, worldUnits } from '../../model/tiles';
import { type ClusterRefresh, EV_FUEL, type TileQuery } from '../store';
import type { SqliteConnection } from './connection';
import { denseStreetTiles, stageStreetCopies, writeStreetCopies } from './street-copies';

/** Called inside each write transaction that changed a station's place or type, or a newest price. */
export function moveMapVersion(c: SqliteConnection): void {
  c.prepare('UPDATE map_version SET version = version + 1').run();
}

/** The version of the stations and prices now. */
const versionNow = (c: SqliteConnection): number =>
  c.prepare('SELECT version FROM map_version').pluck().get() as number;

export async function tileVersion(c: SqliteConnection): Promise<string> {
  return c.prepare("SELECT version || '.' || clusters_built FROM map_version").pluck().get() as string;
}

/**
 * A fuel's stations as the builder reads them, with the version they are of, its street tiles' copies
 * staged for the write (street-copies.ts): one read transaction.
 */
function readFuel(
  c: SqliteConnection,
  fuel: string,
  denseTiles: readonly number[],
): { version: number; stations: ClusterStations } {
  const read = c.db.transaction(() => {
    const version = versionNow(c);
    const count =
      fuel === EV_FUEL
        ? (c
            .prepare("SELECT count(*) FROM stations WHERE station_type IN ('ev_charger', 'both')")
            .pluck()
            .get() as number)
        : (c.prepare('SELECT count(*) FROM latest_prices WHERE fuel = ?').pluck().get(fuel) as number);
    const stations: ClusterStations = {
      ux: new Uint32Array(count),
      uy: new Uint32Array(count),
      price: new Float64Array(count).fill(Number.NaN),
      currency: new Int32Array(count).fill(-1),
      currencies: [],
    };
    const currencies = new Map<string, number>();
    const rows =
      fuel === EV_FUEL
        ? c.prepare("SELECT lon, lat, NULL, NULL FROM stations WHERE station_type IN ('ev_charger', 'both')")
        : c.prepare(
            `SELECT s.lon, s.lat, p.price, p.currency FROM latest_prices p JOIN stations s ON s.seq = p.station_seq
             WHERE p.fuel = ?`,
          );
    let s = 0;
    for (const [lon, lat, price, currency] of rows
      .raw()
      .iterate(...(fuel === EV_FUEL ? [] : [fuel])) as Iterable<
      [number, number, number | null, string | null]
    >) {
      [stations.ux[s], stations.uy[s]] = worldUnits(lon, lat);
      if (price !== null) stations.price[s] = price;
      if (currency !== null) {
        if (!currencies.has(currency)) currencies.set(currency, currencies.size);
        stations.currency[s] = currencies.get(currency) as number;
      }
      s++;
    }
    stations.currencies = [...currencies.keys()];
    stageStreetCopies(c, fuel, denseTiles);
    return { version, stations };
  });
  return read();
}

/**
 * Builds the cluster table again for every fuel whose cells are not of the current version (each fuel read
 * in one transaction and written in another; a write in between leaves that fuel to the next refresh).
 * Synchronous work of seconds at millions of stations: the scrape thread and the command line call it.
 */
export async function refreshStationClusters(c: SqliteConnection): Promise<ClusterRefresh> {
  const started = performance.now();
  const result: ClusterRefresh = { rebuilt: [], cells: 0, seconds: 0 };
  const version = versionNow(c);
  // Every fuel built from the current version: nothing to read (a fuel new since moved the version too).
  const state = c
    .prepare('SELECT count(*) > 0 AND min(version) = ? AND max(version) = ? FROM station_cluster_builds')
    .pluck()
    .get(version, version);
  if (state === 1) return result;
  const fuels = [
    ...(c.prepare('SELECT DISTINCT fuel FROM latest_prices ORDER BY fuel').pluck().all() as string[]),
    EV_FUEL,
  ];
  const built = new Map(
    (c.prepare('SELECT fuel, version FROM station_cluster_builds').raw().all() as [string, number][]).map(
      ([fuel, v]) => [fuel, v],
    ),
  );
  const insertPoints = c.prepare(
    'INSERT INTO station_tile_points (fuel, tile, currencies, points) VALUES (?, ?, ?, ?)',
  );
  const insert = c.prepare(
    `INSERT INTO station_clusters (fuel, z, tx, ty, cell, count, sum_ux, sum_uy, cheapest, median, currency)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  /** The street tiles to copy, found once for every fuel built (street-copies.ts). */
  let denseTiles: number[] | undefined;
  for (const fuel of fuels) {
    if (built.get(fuel) === version) continue;
    // Each fuel's stations are freed before the next is read.
    denseTiles ??= denseStreetTiles(c, c.streetCopyFrom);
    const { version: of, stations } = readFuel(c, fuel, denseTiles);
    const levels = buildClusterLevels(stations, PYRAMID_MAX_ZOOM);
    // Sorted before the write transaction (the sort of every station is not done holding the write lock),
    // packed row by row as they are written.
    const packed = packPoints(stations);
    const write = c.db.transaction(() => {
      c.prepare('DELETE FROM station_clusters WHERE fuel = ?').run(fuel);
      for (const level of levels) {
        for (let k = 0; k < level.size; k++) {
          const cx = level.cx[k] as number;
          const cy = level.cy[k] as number;
          const currency = level.currency[k] as number;
          const price = (v: number) => (Number.isNaN(v) ? null : v);
          insert.run(
            fuel,
            level.z,
            cx >>> 5,
            cy >>> 5,
            (cy & 31) * 32 + (cx & 31),
            level.count[k],
            level.sumUx[k],
            level.sumUy[k],
            price(level.cheapest[k] as number),
            price(level.median[k] as number),
            currency < 0 ? null : stations.currencies[currency],
          );
        }
        result.cells += level.size;
      }
      c.prepare('DELETE FROM station_tile_points WHERE fuel = ?').run(fuel);
      for (const row of packed) {
        insertPoints.run(fuel, row.key, JSON.stringify(row.currencies), row.points);
      }
      writeStreetCopies(c, fuel);
      c.prepare('INSERT OR REPLACE INTO station_cluster_builds (fuel, version) VALUES (?, ?)').run(fuel, of);
      c.prepare('UPDATE map_version SET clusters_built = clusters_built + 1').run();
    });
    write.immediate();
    result.rebuilt.push(fuel);
  }
  // A fuel no longer sold anywhere: its cells go (its tiles are empty either way).
  c.db
    .transaction(() => {
      const gone = (c.prepare('SELECT fuel FROM station_cluster_builds').pluck().all() as string[]).filter(
        (fuel) => !fuels.includes(fuel),
      );
      for (const fuel of gone) {
        c.prepare('DELETE FROM station_clusters WHERE fuel = ?').run(fuel);
        c.prepare('DELETE FROM station_tile_points WHERE fuel = ?').run(fuel);
        c.prepare('DELETE FROM station_street_copies WHERE fuel = ?').run(fuel);
        c.prepare('DELETE FROM station_cluster_builds WHERE fuel = ?').run(fuel);
      }
    })
    .immediate();
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

/**
 * A cluster tile's cells from the last build of the fuel (seconds behind a scrape while the next one runs),
 * once there is one; else null. Zooms up to PYRAMID_MAX_ZOOM read their cells; the zooms above, up to
 * POINTS_ZOOM, the packed stations under the tile, grouped as the live tile groups them.
 */
export function tableClusters(c: SqliteConnection, { fuel, z, x, y }: TileQuery): ClusterCell[] | null {
  if (z > POINTS_ZOOM) return null;
  const read = c.db.transaction((): ClusterCell[] | null => {
    if (!c.prepare('SELECT 1 FROM station_cluster_builds WHERE fuel = ?').get(fuel)) return null;
    if (z <= PYRAMID_MAX_ZOOM) {
      return c
        .prepare(
          `SELECT cell, count, sum_ux AS sumUx, sum_uy AS sumUy, cheapest, median, currency FROM station_clusters
           WHERE fuel = ? AND z = ? AND tx = ? AND ty = ? ORDER BY cell`,
        )
        .all(fuel, z, x, y) as ClusterCell[];
    }
    const tally = new CellTally(z, x, y);
    const [from, to] = pointsKeyRange(z, x, y);
    const rows = c
      .prepare(
        'SELECT tile, currencies, points FROM station_tile_points WHERE fuel = ? AND tile >= ? AND tile < ?',
      )
      .raw()
      .iterate(fuel, from, to) as IterableIterator<[number, string, Uint8Array]>;
    for (const [key, currencies, points] of rows) {
      tallyPoints(tally, { key, currencies: JSON.parse(currencies) as string[], points });
    }
    return tally.result();
  });
  return read();
}
