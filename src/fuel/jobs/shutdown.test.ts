import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../common/logger';
import { parseScraperConfig } from '../scrapers/config';
import { type FakeFeeds, startFakeFeeds } from '../scrapers/testing/fake-feeds';
import { feedEnv, installFeedRoutes } from '../scrapers/testing/feed-routes';
import { openSqliteStore } from '../store/sqlite';
import type { FuelStore } from '../store/store';
import { startScheduler } from './scheduler';

describe('stopping the server mid-scrape (what SIGTERM does)', () => {
  let fake: FakeFeeds;
  beforeAll(async () => {
    fake = await startFakeFeeds();
    installFeedRoutes(fake);
  });
  afterAll(() => fake.close());

  it('lets the price transaction in progress finish before the store closes: nothing half-written', async () => {
    const store = openSqliteStore(':memory:');
    let entered: () => void = () => {};
    const inTransaction = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The store, with the price replacement held at its start until the test has asked the scheduler to stop.
    const held: FuelStore = Object.create(store, {
      replacePrices: {
        value: async (...args: Parameters<FuelStore['replacePrices']>) => {
          entered();
          await gate;
          return store.replacePrices(...args);
        },
      },
    });
    const scheduler = await startScheduler({
      config: parseScraperConfig({ ...feedEnv(fake.url), APP_ENABLED_COUNTRIES: 'ES', APP_EV_ENABLED: '0' }),
      store: held,
      logger: createLogger('fuel', 'silent'),
      firstDelayMs: 0,
      sleep: async () => {},
    });
    await inTransaction;
    let stopped = false;
    const stopping = scheduler.stop().then(() => {
      stopped = true;
    });
    // Stop waits for the run; the run is inside its write step, so it completes it.
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release();
    await stopping;
    const es = (await store.stats()).countries.find((c) => c.code === 'ES');
    expect(es).toMatchObject({ stations: 5, prices: 16 });
    await store.close();
  });
});
