/**
 * The embedded backend: one SQLite file (WAL) through better-sqlite3, an R*Tree over the station points,
 * great-circle distances computed in process. The synchronous driver sits behind the async interface.
 * Reads are in read.ts, writes in write.ts, the price history in history.ts, the stations' positions for
 * the corridor search in positions.ts and the Feature texts' SQL in features.ts; the PostgreSQL store has
 * the same files.
 */

import { bindStore, type Operations } from '../bind';
import { migrateFuelSqlite } from '../migrations';
import type { FuelStore, StationRowReads } from '../store';
import { refreshStationClusters, tileVersion } from './clusters';
import {
  openSqliteDatabase,
  POSITIONS_PER_READ,
  SqliteConnection,
  type SqliteStoreOptions,
} from './connection';
import { priceHistory, prunePriceHistory } from './history';
import {
  countStationsBySource,
  hasStation,
  nearestStations,
  ping,
  searchPlaces,
  stationFeaturesAlongLine,
  stationFeaturesInBox,
  stationsAlongLine,
  stationsInBox,
  stats,
} from './read';
import { STREET_COPY_FROM } from './street-copies';
import { stationTile } from './tiles';
import { deleteOrphanFuelStations, deleteStationsBySource, replacePrices, upsertStations } from './write';

export { openSqliteDatabase, type SqliteStoreOptions } from './connection';

export function openSqliteStore(file: string, options: SqliteStoreOptions = {}): FuelStore {
  const db = openSqliteDatabase(file, options);
  try {
    if (options.migrate ?? true) migrateFuelSqlite(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return sqliteFuelStore(
    new SqliteConnection(
      db,
      options.positionsPerRead ?? POSITIONS_PER_READ,
      options.streetCopyFrom ?? STREET_COPY_FROM,
    ),
  );
}

/** The store's interface over one connection, each operation from its file. */
function sqliteFuelStore(c: SqliteConnection): FuelStore & StationRowReads {
  const operations: Operations<SqliteConnection> = {
    stationsInBox,
    stationFeaturesInBox,
    nearestStations,
    stationTile,
    refreshStationClusters,
    tileVersion,
    stationsAlongLine,
    stationFeaturesAlongLine,
    stats,
    hasStation,
    searchPlaces,
    countStationsBySource,
    priceHistory,
    prunePriceHistory,
    upsertStations,
    replacePrices,
    deleteOrphanFuelStations,
    deleteStationsBySource,
    ping,
  };
  return bindStore(c, 'sqlite', operations, async () => {
    if (c.db.open) c.db.close();
  });
}
