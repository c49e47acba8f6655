import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseScraperConfig } from '../scrapers/config';
import { type FakeFeeds, startFakeFeeds } from '../scrapers/testing/fake-feeds';
import { feedEnv, installFeedRoutes } from '../scrapers/testing/feed-routes';
import { captureLogger } from '../scrapers/testing/logger';
import type { RunSummary } from '../scrapers/types';
import { openSqliteStore } from '../store/sqlite';
import type { FuelStore } from '../store/store';
import { type RunningScheduler, startScheduler } from './scheduler';

const summary = (key: string, extra: Partial<RunSummary> = {}): RunSummary => ({
  key,
  source: 'src',
  country: key.slice(0, 2),
  stations: 12,
  prices: 40,
  durationMs: 1234,
  errors: [],
  ...extra,
});

describe('scheduler (bree jobs whose runs happen on the main thread)', () => {
  let store: FuelStore;
  let scheduler: RunningScheduler | undefined;
  beforeAll(() => {
    store = openSqliteStore(':memory:');
  });
  afterAll(() => store.close());

  describe('with injected time', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    });
    afterEach(async () => {
      const stopping = scheduler?.stop();
      await vi.advanceTimersByTimeAsync(100);
      await stopping;
      scheduler = undefined;
      vi.useRealTimers();
    });

    const start = async (env: Record<string, string>, runKey: (key: string) => Promise<RunSummary>) => {
      const captured = captureLogger();
      scheduler = await startScheduler({
        config: parseScraperConfig(env),
        store,
        logger: captured.logger,
        runKey,
      });
      return captured;
    };

    it('announces every key with its interval, disabled keys and the charger source chosen for Germany', async () => {
      const { messages } = await start(
        { APP_ENABLED_COUNTRIES: 'es,FR, de', APP_SCRAPE_INTERVAL_FR: '0', APP_SCRAPE_INTERVAL_EV_FR: '0.5' },
        async (key) => summary(key),
      );
      expect(messages).toEqual([
        '[scraper] Germany EV: using the official registry (EV_DE_BNETZA) instead of EV_DE',
        '[scraper] ES: scraping every 12h',
        '[scraper] FR: automatic scraping disabled',
        '[scraper] DE: scraping every 1h',
        '[scraper] EV_ES: scraping every 24h',
        '[scraper] EV_FR: scraping every 0.5h',
        '[scraper] EV_DE_BNETZA: scraping every 24h',
      ]);
      expect(scheduler?.keys).toEqual(['ES', 'DE', 'EV_ES', 'EV_FR', 'EV_DE_BNETZA']);
    });

    it('runs the first key 10 s after start, each next 5 s later, then each on its own interval', async () => {
      const calls: string[] = [];
      await start({ APP_ENABLED_COUNTRIES: 'FR,AT,PT', APP_EV_ENABLED: '0' }, async (key) => {
        calls.push(key);
        return summary(key);
      });
      await vi.advanceTimersByTimeAsync(9_999);
      expect(calls).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toEqual(['FR']);
      await vi.advanceTimersByTimeAsync(4_999);
      expect(calls).toEqual(['FR']);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toEqual(['FR', 'PT']);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(calls).toEqual(['FR', 'PT', 'AT']);
      // FR every hour, AT every 2 hours, PT every 12 hours.
      await scheduler?.idle();
      await vi.advanceTimersByTimeAsync(3_600_000);
      expect(calls.slice(3)).toEqual(['FR']);
      await scheduler?.idle();
      await vi.advanceTimersByTimeAsync(3_600_000);
      expect(calls.slice(3)).toEqual(['FR', 'FR', 'AT']);
    });

    it('writes the OK and error(s) lines after each run', async () => {
      const { messages } = await start(
        { APP_ENABLED_COUNTRIES: 'ES,IT', APP_EV_ENABLED: '0' },
        async (key) =>
          key === 'ES'
            ? summary(key)
            : summary(key, {
                stations: 0,
                prices: 0,
                durationMs: 312,
                errors: ['Fatal: HTTP 404 from x', 'second'],
              }),
      );
      await vi.advanceTimersByTimeAsync(15_000);
      expect(messages.slice(-2)).toEqual([
        '[scraper] ES: OK — 12 stations, 40 prices in 1.2s',
        '[scraper] IT: 2 error(s) — 0 stations, 0 prices in 0.3s',
      ]);
    });

    it('skips a tick while the previous run of that key is still going', async () => {
      let release: () => void = () => undefined;
      const { messages } = await start({ APP_ENABLED_COUNTRIES: 'FR', APP_EV_ENABLED: '0' }, (key) => {
        return new Promise((resolve) => {
          release = () => resolve(summary(key));
        });
      });
      await vi.advanceTimersByTimeAsync(10_000 + 3_600_000);
      expect(messages.at(-1)).toBe('[scraper] FR: previous run still in progress — skipping this tick');
      release();
      await vi.advanceTimersByTimeAsync(0);
      expect(messages.at(-1)).toBe('[scraper] FR: OK — 12 stations, 40 prices in 1.2s');
    });

    it('a feed that throws is logged and the next tick runs again', async () => {
      let calls = 0;
      const { messages, records } = await start(
        { APP_ENABLED_COUNTRIES: 'FR', APP_EV_ENABLED: '0' },
        async () => {
          calls++;
          throw new Error('boom');
        },
      );
      await vi.advanceTimersByTimeAsync(10_000);
      await scheduler?.idle();
      await vi.advanceTimersByTimeAsync(3_600_000);
      expect(calls).toBe(2);
      expect(messages.filter((m) => m === '[scraper] FR: Fatal error: boom')).toHaveLength(2);
      expect(records.find((r) => r.msg === '[scraper] FR: Fatal error: boom')?.level).toBe(50);
    });

    it('APP_EV_ENABLED=0 drops every charger key; APP_SCRAPE_INTERVAL_HOURS=0 disables everything', async () => {
      const calls: string[] = [];
      const record = async (key: string) => {
        calls.push(key);
        return summary(key);
      };
      const noEv = await start({ APP_EV_ENABLED: '0' }, record);
      expect(noEv.messages.some((m) => m.includes('EV_'))).toBe(false);
      expect(scheduler?.keys).toEqual(['ES', 'FR', 'PT', 'IT', 'AT', 'DE', 'GB', 'DK', 'AU', 'AU_NSW']);
      await scheduler?.stop();

      const off = await start(
        { APP_SCRAPE_INTERVAL_HOURS: '0', APP_SCRAPE_INTERVAL_ES: '1', APP_ENABLED_COUNTRIES: 'ES' },
        record,
      );
      expect(off.messages).toEqual([
        '[scraper] ES: automatic scraping disabled',
        '[scraper] EV_ES: automatic scraping disabled',
      ]);
      await vi.advanceTimersByTimeAsync(48 * 3_600_000);
      expect(calls).toEqual([]);
    });

    it('a global interval applies to every key; a key of its own wins', async () => {
      const { messages } = await start(
        { APP_ENABLED_COUNTRIES: 'ES', APP_SCRAPE_INTERVAL_HOURS: '6', APP_SCRAPE_INTERVAL_EV_ES: '2' },
        async (key) => summary(key),
      );
      expect(messages).toEqual(['[scraper] ES: scraping every 6h', '[scraper] EV_ES: scraping every 2h']);
    });

    it('with the Spanish registry key, EV_ES_REVE replaces EV_ES', async () => {
      const { messages } = await start(
        { APP_ENABLED_COUNTRIES: 'ES', APP_REVE_API_KEY: 'k', APP_DE_EV_SOURCE: 'ocm' },
        async (key) => summary(key),
      );
      expect(messages).toEqual([
        '[scraper] Spain EV: using the official registry (EV_ES_REVE) instead of EV_ES',
        '[scraper] ES: scraping every 12h',
        '[scraper] EV_ES_REVE: scraping every 1h',
      ]);
    });

    it('stop() clears every timer', async () => {
      const calls: string[] = [];
      await start({ APP_ENABLED_COUNTRIES: 'FR', APP_EV_ENABLED: '0' }, async (key) => {
        calls.push(key);
        return summary(key);
      });
      await scheduler?.stop();
      await vi.advanceTimersByTimeAsync(10 * 3_600_000);
      expect(calls).toEqual([]);
    });
  });

  describe('with the real feeds against fake servers', () => {
    let fake: FakeFeeds;
    beforeAll(async () => {
      fake = await startFakeFeeds();
      installFeedRoutes(fake);
    });
    afterAll(() => fake.close());

    it('runs the scrapers through the pipeline into the store', async () => {
      const captured = captureLogger();
      const config = parseScraperConfig({
        ...feedEnv(fake.url),
        APP_ENABLED_COUNTRIES: 'ES,PT',
        APP_EV_ENABLED: '0',
      });
      scheduler = await startScheduler({
        config,
        store,
        logger: captured.logger,
        firstDelayMs: 0,
        staggerMs: 1,
      });
      // Both runs end on their own; the bound only keeps a broken run from hanging the suite.
      await vi.waitFor(
        () =>
          expect(captured.messages.filter((m) => m.startsWith('[scraper] ') && m.includes('—'))).toHaveLength(
            2,
          ),
        { timeout: 30_000, interval: 20 },
      );
      await scheduler.stop();
      expect(captured.messages).toContain('[miteco] Fetching data for ES ...');
      const result = (key: string) =>
        captured.messages.find((m) => m.startsWith(`[scraper] ${key}: `) && m.includes('—'));
      expect(result('ES')).toMatch(/^\[scraper\] ES: OK — 5 stations, \d+ prices in \d+\.\ds$/);
      expect(result('PT')).toMatch(/^\[scraper\] PT: OK — 3 stations, 4 prices/);
      const stats = await store.stats();
      expect(stats.countries.map((c) => c.code).sort()).toEqual(['ES', 'PT']);
    });
  });
});
