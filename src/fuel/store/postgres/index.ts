/**
 * The server backend: PostgreSQL with PostGIS through a pool of node-postgres connections. Reads are in
 * read.ts, writes in write.ts, the price history in history.ts, the stations' positions for the corridor
 * search in positions.ts and the Feature texts' SQL in features.ts; the SQLite store has the same files.
 */
import { createPgPool } from '../../../common/databases';
import { migrateFuel } from '../migrations';
import type { FuelStore, StationRowReads } from '../store';
import { PostgresConnection, type PostgresStoreOptions } from './connection';
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
import { deleteOrphanFuelStations, deleteStationsBySource, replacePrices, upsertStations } from './write';

export type { PostgresStoreOptions } from './connection';

export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<FuelStore> {
  const pool = createPgPool(url, {
    max: options.maxConnections ?? 10,
    // These are short queries whose planner costs look high (20,000-row answers); compiling them with JIT
    // costs more than it saves, and so does starting parallel workers (5 ms of a 6 ms nearest search).
    options: '-c jit=off -c max_parallel_workers_per_gather=0',
  });
  try {
    if (options.migrate ?? true) await migrateFuel({ backend: 'postgresql', pool });
    else await pool.query('SELECT 1');
  } catch (error) {
    await pool.end();
    throw error;
  }
  return postgresFuelStore(new PostgresConnection(pool));
}

/** The store's interface over one pool, each operation from its file. */
function postgresFuelStore(c: PostgresConnection): FuelStore & StationRowReads {
  return {
    backend: 'postgresql',
    stationsInBox: (query) => stationsInBox(c, query),
    stationFeaturesInBox: (query) => stationFeaturesInBox(c, query),
    nearestStations: (query) => nearestStations(c, query),
    stationsAlongLine: (query) => stationsAlongLine(c, query),
    stationFeaturesAlongLine: (query) => stationFeaturesAlongLine(c, query),
    stats: () => stats(c),
    hasStation: (country, externalId) => hasStation(c, country, externalId),
    searchPlaces: (text, limit) => searchPlaces(c, text, limit),
    countStationsBySource: (source, country) => countStationsBySource(c, source, country),
    priceHistory: (query) => priceHistory(c, query),
    prunePriceHistory: (country, before) => prunePriceHistory(c, country, before),
    upsertStations: (stations, options) => upsertStations(c, stations, options),
    replacePrices: (source, country, prices, options) => replacePrices(c, source, country, prices, options),
    deleteOrphanFuelStations: (country) => deleteOrphanFuelStations(c, country),
    deleteStationsBySource: (source, country, options) => deleteStationsBySource(c, source, country, options),
    ping: () => ping(c),
    close: async () => {
      if (c.closed) return;
      c.closed = true;
      await c.pool.end();
    },
  };
}
