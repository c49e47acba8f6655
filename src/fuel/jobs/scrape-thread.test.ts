// The scrape thread: scheduled runs happen off the server's thread, over the same database, with their
// log lines brought back; a stopped run leaves the thread usable; closing it ends it.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../common/logger';
import { createTestDatabase, type TestDatabase } from '../../common/testing/postgres';
import { parseScraperConfig } from '../scrapers/config';
import { type FakeFeeds, startFakeFeeds } from '../scrapers/testing/fake-feeds';
import { FEED_PATHS, feedEnv, installFeedRoutes } from '../scrapers/testing/feed-routes';
import { type DatabaseLocation, migrateDatabase, openFuelStore } from '../store/open';
import { startScheduler } from './scheduler';
import { ScrapeThread } from './scrape-thread';

function capturingLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line).msg);
      done();
    },
  });
  return { lines, logger: createLogger('fuel', 'info', sink) };
}

describe('the scrape thread', () => {
  let fake: FakeFeeds;
  let pg: TestDatabase;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'specyard-scrape-thread-'));
  const config = () =>
    parseScraperConfig({ ...feedEnv(fake.url), APP_ENABLED_COUNTRIES: 'ES', APP_EV_ENABLED: '0' });
  beforeAll(async () => {
    fake = await startFakeFeeds();
    installFeedRoutes(fake);
    pg = await createTestDatabase('fuel_thread');
  });
  afterAll(async () => {
    await fake.close();
    await pg.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const backends: [string, () => DatabaseLocation][] = [
    ['SQLite', () => ({ kind: 'sqlite', path: path.join(dir, 'thread.db') })],
    ['PostgreSQL', () => ({ kind: 'postgresql', url: pg.url })],
  ];
  for (const [name, location] of backends) {
    it(`runs a key into the server's database and reports its lines (${name})`, async () => {
      const database = location();
      await migrateDatabase(database);
      const { lines, logger } = capturingLogger();
      const thread = new ScrapeThread({ config: config(), database }, logger);
      try {
        const summary = await thread.run('ES', new AbortController().signal);
        expect(summary).toMatchObject({ key: 'ES', country: 'ES', stations: 5, prices: 16, errors: [] });
        expect(lines).toContain('[scraper] scrape thread started');
        expect(lines.some((line) => line.includes('Fetching data for ES'))).toBe(true);
        // The map's clusters are built again after the run, on the thread.
        const rebuilt = () =>
          lines.find((line) => /^map clusters rebuilt: .*\bB7\b.* \(\d+ cells, /.test(line));
        await vi.waitFor(() => expect(rebuilt()).toBeDefined());
        expect(rebuilt()).toMatch(/\bEV\b/);
      } finally {
        await thread.close();
      }
      const store = await openFuelStore(database, { migrate: false });
      expect((await store.refreshStationClusters()).rebuilt).toEqual([]);
      expect((await store.stats()).countries.find((c) => c.code === 'ES')).toMatchObject({
        stations: 5,
        prices: 16,
      });
      await store.close();
    });
  }

  it('runs at a lower priority than the thread that answers HTTP', async () => {
    const niced = () =>
      readdirSync(`/proc/${process.pid}/task`).filter((tid) => {
        const fields = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8')
          .split(') ')[1]
          ?.split(' ');
        return fields?.[16] === '10';
      });
    const before = niced();
    const database: DatabaseLocation = { kind: 'sqlite', path: path.join(dir, 'nice.db') };
    await migrateDatabase(database);
    const thread = new ScrapeThread({ config: config(), database }, capturingLogger().logger);
    await thread.start();
    expect(niced().length).toBe(before.length + 1);
    await thread.close();
  });

  it('stops a run when asked and runs the next one; a closed thread starts again', async () => {
    const database: DatabaseLocation = { kind: 'sqlite', path: path.join(dir, 'stop.db') };
    await migrateDatabase(database);
    const { logger } = capturingLogger();
    const thread = new ScrapeThread({ config: config(), database, tuning: { timeoutMs: 60_000 } }, logger);
    fake.route(FEED_PATHS.ES, { hang: true });
    const asked = () => fake.requests.filter((r) => r.path === FEED_PATHS.ES).length;
    const before = asked();
    const controller = new AbortController();
    const hanging = thread.run('ES', controller.signal);
    while (asked() === before) await new Promise((r) => setTimeout(r, 20));
    controller.abort(new Error('Scheduler stopping'));
    const stopped = await hanging;
    expect(stopped.stations).toBe(0);
    expect(stopped.errors.join(' ')).toMatch(/Scheduler stopping|abort/i);

    installFeedRoutes(fake);
    expect((await thread.run('ES', new AbortController().signal)).stations).toBe(5);
    await thread.close();
    expect((await thread.run('ES', new AbortController().signal)).stations).toBe(5);
    await thread.close();
  });

  it('is where the scheduler runs keys when it knows the database', async () => {
    const database: DatabaseLocation = { kind: 'sqlite', path: path.join(dir, 'scheduler.db') };
    await migrateDatabase(database);
    const store = await openFuelStore(database, { migrate: false });
    const { lines, logger } = capturingLogger();
    const scheduler = await startScheduler({ config: config(), store, logger, database, firstDelayMs: 0 });
    while (!lines.some((line) => line.startsWith('[scraper] ES: ') && line.includes('stations')))
      await new Promise((r) => setTimeout(r, 20));
    await scheduler.stop();
    expect(lines).toContain('[scraper] scrape thread started');
    expect((await store.stats()).countries.find((c) => c.code === 'ES')).toMatchObject({ stations: 5 });
    await store.close();
  });
});
