/**
 * The PostgreSQL store's connections: the pool, a transaction, rows handed over as the driver reads them.
 */
import pg from 'pg';
import { VersionedPositions } from '../positions';

export interface PostgresStoreOptions {
  /** Apply pending migrations on open (default true). */
  migrate?: boolean;
  /** Largest number of pooled connections (default 10). */
  maxConnections?: number;
}

export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Runs a query and hands each row (as an array) to `each` as the driver reads it, keeping none: a
 * 20,000-row answer held as rows until it was written made the process's minor collections copy it
 * (FeatureRuns).
 */
export async function forEachRow<R extends unknown[]>(
  pool: pg.Pool,
  config: pg.QueryConfig,
  each: (row: R) => void,
): Promise<void> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const arrays: pg.QueryArrayConfig = { ...config, rowMode: 'array' };
      const query = new pg.Query<R>(arrays);
      query.on('row', each);
      query.on('end', () => resolve());
      query.on('error', reject);
      client.query(query);
    });
  } catch (error) {
    // As the pool's own query does: a client whose query failed is not given to the next caller.
    failure = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(failure);
  }
}

/**
 * What every part of the PostgreSQL store shares: the pool, and the stations' positions for the corridor
 * search by the `stations_version` they were read at (positions.ts).
 */
export class PostgresConnection {
  readonly positions = new VersionedPositions<string>();
  closed = false;

  constructor(readonly pool: pg.Pool) {}
}
