/**
 * One scheduler replica in its own process, for the replica test (key-lock.test.ts): the real scheduler
 * and key lock on the PostgreSQL database of REPLICA_DATABASE_URL, scheduling key ES at once, with a run
 * that reports `started` over IPC and ends when the parent sends `finish`. Scheduler lines go to the
 * parent as `{ line }`. With REPLICA_MODE=count a run ends at once and reports `{ ran, at }`, every
 * REPLICA_INTERVAL_HOURS: `at` is its start as the key lock recorded it (the database's clock, in
 * milliseconds), which is what the lock compares; this process's clock would add its own delays under load.
 */
import pg from 'pg';
import { createLogger } from '../../../common/logger';
import { parseScraperConfig } from '../../scrapers/config';
import type { RunSummary } from '../../scrapers/types';
import { openFuelStore } from '../../store/open';
import { startScheduler } from '../scheduler';

const send = (message: unknown) => process.send?.(message);
const url = process.env.REPLICA_DATABASE_URL ?? '';
const store = await openFuelStore({ kind: 'postgresql', url });
let finish: (() => void) | undefined;
process.on('message', (message) => {
  if (message === 'finish') finish?.();
});
const logger = createLogger('fuel', 'info');
for (const level of ['info', 'warn', 'error'] as const) {
  logger[level] = ((text: unknown) => send({ line: String(text) })) as never;
}
const scheduler = await startScheduler({
  config: parseScraperConfig({
    APP_ENABLED_COUNTRIES: 'ES',
    APP_EV_ENABLED: '0',
    APP_SCRAPE_INTERVAL_ES: process.env.REPLICA_INTERVAL_HOURS ?? '6',
  }),
  store,
  logger,
  database: { kind: 'postgresql', url },
  firstDelayMs: 0,
  runKey: async (key): Promise<RunSummary> => {
    if (process.env.REPLICA_MODE === 'count') {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const started = await client.query<{ at: number }>(
          'SELECT (extract(epoch FROM started_at) * 1000)::float8 AS at FROM scrape_runs WHERE key = $1',
          [key],
        );
        send({ ran: key, at: started.rows[0]?.at });
      } finally {
        await client.end();
      }
      return { key, source: 'test', country: 'ES', stations: 1, prices: 1, durationMs: 1, errors: [] };
    }
    await new Promise<void>((resolve) => {
      finish = resolve;
      send({ started: key });
    });
    return { key, source: 'test', country: 'ES', stations: 1, prices: 1, durationMs: 1, errors: [] };
  },
});
send({ ready: scheduler.keys });
process.once('SIGTERM', async () => {
  await scheduler.stop();
  await store.close();
  process.exit(0);
});
