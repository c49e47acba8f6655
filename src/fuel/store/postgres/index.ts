/**
 * The server backend: PostgreSQL with PostGIS through a pool of node-postgres connections. Reads are in
 * read.ts, writes in write.ts, the price history in history.ts, the stations' positions for the corridor
 * search in positions.ts and the Feature texts' SQL in features.ts; the SQLite store has the same files.
 */
import type pg from 'pg';
import { createPgPool } from '../../../common/databases';
import { bindStore, type Operations } from '../bind';
import { migrateFuel } from '../migrations';
import type { FuelStore, StationRowReads } from '../store';
import { refreshStationClusters, tileVersion } from './clusters';
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
import { stationTile } from './tiles';
import { deleteOrphanFuelStations, deleteStationsBySource, replacePrices, upsertStations } from './write';

export type { PostgresStoreOptions } from './connection';

export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<FuelStore> {
  const pool = createPgPool(url, {
    max: options.maxConnections ?? 10,
    // These are short queries whose planner costs look high (20,000-row answers); compiling them with JIT
    // costs more than it saves, and so does starting parallel workers (5 ms of a 6 ms nearest search).
    options: '-c jit=off -c max_parallel_workers_per_gather=0',
    onConnect: readAhead,
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

/**
 * A street tile reads a few thousand stations' rows scattered over the table (one page each at 10,000,000
 * stations). With the pages asked for ahead (posix_fadvise), the two densest tiles, in central Rome, took
 * 54-60 ms instead of 299-360 from a cold server and page cache (scripts/bench/README.md, vector tiles);
 * PostgreSQL's default asks for one page ahead. A server
 * without posix_fadvise refuses any value but 0 (invalid_parameter_value): the connection then keeps its
 * default. Any other failure fails the connect. Sent before the connection's first use.
 */
export async function readAhead(client: pg.ClientBase): Promise<void> {
  try {
    await client.query(`SET effective_io_concurrency = ${READ_AHEAD_PAGES}`);
  } catch (error) {
    if ((error as { code?: unknown }).code !== INVALID_PARAMETER_VALUE) throw error;
  }
}

const INVALID_PARAMETER_VALUE = '22023';

const READ_AHEAD_PAGES = 128;

/** The store's interface over one connection, each operation from its file. */
function postgresFuelStore(c: PostgresConnection): FuelStore & StationRowReads {
  const operations: Operations<PostgresConnection> = {
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
  return bindStore(c, 'postgresql', operations, async () => {
    if (c.closed) return;
    c.closed = true;
    await c.pool.end();
  });
}
