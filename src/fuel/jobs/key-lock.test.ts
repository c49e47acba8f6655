import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../common/testing/postgres';
import { openKeyLock } from './key-lock';

const REPLICA = path.join(import.meta.dirname, 'testing', 'replica.ts');

interface Replica {
  child: ChildProcess;
  lines: string[];
  /** Resolves with the first message that matches. */
  next(match: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

function replica(url: string, env: Record<string, string> = {}): Replica {
  const child = fork(REPLICA, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, REPLICA_DATABASE_URL: url, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const lines: string[] = [];
  const seen: Record<string, unknown>[] = [];
  const waiting: [(m: Record<string, unknown>) => boolean, (m: Record<string, unknown>) => void][] = [];
  child.on('message', (message: Record<string, unknown>) => {
    if (typeof message.line === 'string') lines.push(message.line);
    seen.push(message);
    for (const entry of [...waiting]) {
      if (entry[0](message)) {
        waiting.splice(waiting.indexOf(entry), 1);
        entry[1](message);
      }
    }
  });
  return {
    child,
    lines,
    next: (match) =>
      new Promise((resolve, reject) => {
        const found = seen.find(match);
        if (found) return resolve(found);
        waiting.push([match, resolve]);
        child.once('exit', (code) => reject(new Error(`replica exited ${code}`)));
      }),
  };
}

async function stop(r: Replica): Promise<number | null> {
  if (r.child.exitCode !== null || r.child.signalCode !== null) return r.child.exitCode;
  const exited = new Promise<number | null>((resolve) => r.child.once('exit', resolve));
  r.child.kill('SIGTERM');
  return exited;
}

describe('scraper keys across replicas on one PostgreSQL database', () => {
  let db: TestDatabase;
  const running: Replica[] = [];
  beforeAll(async () => {
    db = await createTestDatabase('fuel_replicas');
  });
  afterAll(async () => {
    for (const r of running) await stop(r);
    await db.drop();
  });

  it('one replica scrapes a key; another replica’s tick skips it; a run by hand waits for it', async () => {
    const first = replica(db.url);
    running.push(first);
    expect(await first.next((m) => 'started' in m)).toEqual({ started: 'ES' });

    // The second replica's first tick comes while the first is still scraping ES.
    const second = replica(db.url);
    running.push(second);
    await second.next((m) => typeof m.line === 'string' && m.line.includes('ES: another replica'));
    expect(second.lines).toContain('[scraper] ES: another replica is scraping it — skipping this tick');
    expect(second.lines.some((line) => line.startsWith('[scraper] ES: OK'))).toBe(false);

    // The scrape command line's lock: it says so, waits, and runs once the replica's run is over.
    const lock = openKeyLock({ kind: 'postgresql', url: db.url });
    const order: string[] = [];
    try {
      const byHand = lock.run(
        'ES',
        async () => {
          order.push('by hand');
          return 'done';
        },
        { wait: true, onWait: () => order.push('waiting') },
      );
      // Another key is free meanwhile.
      expect(await lock.run('PT', async () => 'free')).toEqual({ ran: true, value: 'free' });
      await new Promise<void>((resolve) => {
        const poll = () => (order.length > 0 ? resolve() : setImmediate(poll));
        poll();
      });
      expect(order).toEqual(['waiting']);
      first.child.send('finish');
      await first.next((m) => typeof m.line === 'string' && m.line.startsWith('[scraper] ES: OK'));
      expect(await byHand).toEqual({ ran: true, value: 'done' });
      expect(order).toEqual(['waiting', 'by hand']);
    } finally {
      await lock.close();
    }
    // Both replicas stop cleanly on SIGTERM.
    expect(await stop(second)).toBe(0);
    expect(await stop(first)).toBe(0);
  }, 120_000);

  /** Forgets the runs the tests before recorded, so that a replica's first tick runs its key. */
  async function forgetRuns(): Promise<void> {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query('DELETE FROM scrape_runs');
    } finally {
      await client.end();
    }
  }

  it('a killed replica leaves no key locked', async () => {
    await forgetRuns();
    const doomed = replica(db.url);
    running.push(doomed);
    await doomed.next((m) => 'started' in m);
    const lock = openKeyLock({ kind: 'postgresql', url: db.url });
    try {
      expect(await lock.run('ES', async () => 1)).toEqual({ ran: false, reason: 'held' });
      const exited = new Promise((resolve) => doomed.child.once('exit', resolve));
      doomed.child.kill('SIGKILL');
      await exited;
      // PostgreSQL ends the backend of the dropped connection; the lock goes with it.
      expect(await lock.run('ES', async () => 2, { wait: true })).toEqual({ ran: true, value: 2 });
    } finally {
      await lock.close();
    }
  }, 120_000);

  it('a replica killed mid-scrape holds nothing: restarted, it scrapes the key at once', async () => {
    await forgetRuns();
    const doomed = replica(db.url);
    running.push(doomed);
    expect(await doomed.next((m) => 'started' in m)).toEqual({ started: 'ES' });
    const exited = new Promise((resolve) => doomed.child.once('exit', resolve));
    doomed.child.kill('SIGKILL');
    await exited;
    // The same replica started again, alone: its first tick runs ES (the killed run never finished).
    const restarted = replica(db.url);
    running.push(restarted);
    expect(await restarted.next((m) => 'started' in m)).toEqual({ started: 'ES' });
    expect(restarted.lines.filter((line) => line.includes('skipping'))).toEqual([]);
    // A finished run counts: a replica that starts after it skips its tick.
    restarted.child.send('finish');
    await restarted.next((m) => typeof m.line === 'string' && m.line.startsWith('[scraper] ES: OK'));
    const later = replica(db.url);
    running.push(later);
    await later.next((m) => typeof m.line === 'string' && m.line.includes('by another replica — skipping'));
    expect(await stop(later)).toBe(0);
    expect(await stop(restarted)).toBe(0);
  }, 120_000);

  it('two replicas scrape a key once per interval between them, not once each', async () => {
    await forgetRuns();
    // A run that ends at once and is counted: the lock alone would let the second replica's tick, a few
    // moments after the first's, run the key again.
    const interval = { REPLICA_MODE: 'count', REPLICA_INTERVAL_HOURS: '0.0003' };
    const intervalMs = 1080;
    const runs: number[] = [];
    const first = replica(db.url, interval);
    running.push(first);
    const second = replica(db.url, interval);
    running.push(second);
    for (const r of [first, second]) {
      r.child.on('message', (m: Record<string, unknown>) => {
        if ('ran' in m) runs.push(Number(m.at));
      });
    }
    // One of the two finds the other's run recent on a tick of its own, and says so.
    const skipped = (m: Record<string, unknown>) =>
      typeof m.line === 'string' && m.line.includes('by another replica — skipping');
    await Promise.race([first.next(skipped), second.next(skipped)]);
    await new Promise((resolve) => setTimeout(resolve, 4 * intervalMs));
    expect(await stop(first)).toBe(0);
    expect(await stop(second)).toBe(0);
    const sorted = [...runs].sort((a, b) => a - b);
    expect(sorted.length).toBeGreaterThanOrEqual(3);
    // The starts as the lock recorded them: none within the scheduler's nine tenths of the interval of
    // the one before (a millisecond for the clock's rounding).
    for (let i = 1; i < sorted.length; i++) {
      expect((sorted[i] as number) - (sorted[i - 1] as number)).toBeGreaterThan(0.9 * intervalMs - 1);
    }
  }, 120_000);
});
