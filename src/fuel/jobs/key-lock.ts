/**
 * One scraper key at a time across every process on one PostgreSQL database: replicas behind a proxy each
 * run the scheduler, and the scrape command line may run a key by hand. Each run of a key holds the
 * session advisory lock (`hashtext('specyard.fuel.scrape')`, `hashtext(key)`) on a connection of its own
 * for the whole run; a replica whose tick finds it held skips that tick, the command line waits for it.
 * PostgreSQL drops the lock with the connection, so a killed process never leaves a key locked. Under the
 * lock each run records when it started and when it finished (`scrape_runs`, migrations 007 and 008), and a
 * scheduler's tick that comes less than the key's interval after the start of a finished run skips it:
 * replicas whose timers differ by a few seconds would otherwise each run the key once per interval, one
 * after the other. A run whose process died never finishes, so it holds nothing: the next tick of any
 * replica, the restarted one included, runs the key.
 *
 * SQLite is one process's file (replicas need PostgreSQL); there the lock is a no-op.
 */
import type pg from 'pg';
import { createPgPool } from '../../common/databases';
import type { DatabaseLocation } from '../store/open';

const NAMESPACE = 'specyard.fuel.scrape';

export type Locked<T> =
  | { ran: true; value: T }
  /** Another process holds the key's lock. */
  | { ran: false; reason: 'held' }
  /** The key's last finished run, by any process, started less than `notWithinMs` ago. */
  | { ran: false; reason: 'recent'; startedAgoMs: number };

export interface KeyLock {
  /**
   * Runs `task` holding the key's lock. Without `wait`, answers `{ ran: false }` at once when another
   * process holds it; with `wait`, calls `onWait` once and blocks until the lock is free. With
   * `notWithinMs`, a key whose last run started less than that long ago is not run again.
   */
  run<T>(
    key: string,
    task: () => Promise<T>,
    options?: { wait?: boolean; onWait?: () => void; notWithinMs?: number },
  ): Promise<Locked<T>>;
  close(): Promise<void>;
}

const noLock: KeyLock = {
  run: async (_key, task) => ({ ran: true, value: await task() }),
  close: async () => {},
};

export function openKeyLock(location: DatabaseLocation | undefined): KeyLock {
  if (location?.kind !== 'postgresql') return noLock;
  // One connection per key running at once; runs are few (one per key), so a small pool is plenty.
  const pool = createPgPool(location.url, { max: 8 });
  const args = (key: string) => [NAMESPACE, key];
  return {
    async run(key, task, options = {}) {
      let client: pg.PoolClient | undefined = await pool.connect();
      try {
        const tried = await client.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS locked',
          args(key),
        );
        if (!tried.rows[0]?.locked) {
          if (!options.wait) return { ran: false, reason: 'held' };
          options.onWait?.();
          await client.query('SELECT pg_advisory_lock(hashtext($1), hashtext($2))', args(key));
        }
        try {
          const last = await client.query<{ ago: number }>(
            `SELECT (extract(epoch FROM now() - started_at) * 1000)::float8 AS ago FROM scrape_runs
             WHERE key = $1 AND finished_at IS NOT NULL`,
            [key],
          );
          const ago = last.rows[0]?.ago;
          if (options.notWithinMs !== undefined && ago !== undefined && ago < options.notWithinMs)
            return { ran: false, reason: 'recent', startedAgoMs: ago };
          await client.query(
            `INSERT INTO scrape_runs (key, started_at, finished_at) VALUES ($1, now(), NULL)
             ON CONFLICT (key) DO UPDATE SET started_at = excluded.started_at, finished_at = NULL`,
            [key],
          );
          try {
            return { ran: true, value: await task() };
          } finally {
            await client.query('UPDATE scrape_runs SET finished_at = now() WHERE key = $1', [key]);
          }
        } finally {
          await client.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', args(key)).catch(() => {
            // A broken connection released the lock with it; never reuse that client.
            client?.release(true);
            client = undefined;
          });
        }
      } finally {
        client?.release();
      }
    },
    close: () => pool.end(),
  };
}
