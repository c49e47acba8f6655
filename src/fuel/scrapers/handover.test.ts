import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FuelStore } from '../store/store';
import { type OpenedTestStore, TEST_BACKENDS } from '../testing/stores';
import type { OcmSettings } from './config';
import { bnetzaScraper } from './feeds/bnetza';
import { OcmGate, ocmScraper } from './feeds/ocm';
import { reveScraper } from './feeds/reve';
import { decodeText } from './http';
import { runScraper } from './pipeline';
import { recordingLog } from './testing/context';
import { type FakeFeeds, fixture, startFakeFeeds } from './testing/fake-feeds';
import { OCM_KEY, ocmHandler, REVE_KEY, reveHandler } from './testing/feed-routes';
import type { Scraper } from './types';

const OCM: OcmSettings = {
  apiKey: OCM_KEY,
  maxRequests: 10,
  maxConcurrency: 1,
  tileDelayMs: 0,
  timeBudgetMs: 60_000,
  maxResults: 5000,
  minTileDeg: 0.05,
  trustSpanDeg: 2,
};

/** The register with one more location (Dresden) than the fixture. */
function registerWithDresden(): string {
  const text = decodeText(fixture('bnetza-ladesaeulenregister.csv'));
  const stuttgart = text.split('\r\n').find((line) => line.startsWith('100008;')) as string;
  const dresden = stuttgart
    .replace('100008;', '100009;')
    .replace('48,778870', '51,050409')
    .replace('9,179760', '13,737262')
    .replace(';Stuttgart;', ';Dresden;');
  return text.replace(stuttgart, `${stuttgart}\r\n${dresden}`);
}

describe.each(Object.keys(TEST_BACKENDS) as (keyof typeof TEST_BACKENDS)[])(
  'charger handovers on %s',
  (backend) => {
    let opened: OpenedTestStore;
    let store: FuelStore;
    let fake: FakeFeeds;
    beforeAll(async () => {
      opened = await TEST_BACKENDS[backend]();
      store = opened.store;
      fake = await startFakeFeeds();
      fake.route('/ocm/v3/poi/', ocmHandler());
    });
    afterAll(async () => {
      await fake.close();
      await opened.dispose();
    });

    const run = async (scraper: Scraper) => {
      const log = recordingLog();
      const summary = await runScraper(scraper, { store, log, sleep: async () => undefined });
      return { summary, log };
    };
    const crowdsourced = (country: string) =>
      ocmScraper(country, { baseUrl: `${fake.url}/ocm/v3`, settings: OCM, gate: new OcmGate(1, 0) });

    it('Spain: crowdsourced rows stay until the registry holds the cut-over share, then go', async () => {
      await run(crowdsourced('ES'));
      await run(crowdsourced('PT'));
      expect(await store.countStationsBySource('ocm', 'ES')).toBe(2);
      fake.route('/reve/locations', reveHandler({ perPage: 2 }));
      const registry = (pagesPerRun: number) =>
        reveScraper({ baseUrl: `${fake.url}/reve`, apiKey: REVE_KEY, pagesPerRun, cutoverRatio: 0.8 });

      // One page: 2 of 6 locations stored, below 80 %.
      const first = await run(registry(1));
      expect(first.summary).toMatchObject({ stations: 2, errors: [] });
      expect(first.log.lines).toContain(
        '[reve] ES: 2 of 6 registry locations stored; crowdsourced chargers stay until 80%',
      );
      expect(await store.countStationsBySource('ocm', 'ES')).toBe(2);

      // Every page: 5 of 6 (one location has no position), at least 80 %.
      const second = await run(registry(5));
      expect(second.summary).toMatchObject({ stations: 5, errors: [] });
      expect(second.log.lines).toContain(
        '[reve] ES: 5 of 6 registry locations stored; removed 2 crowdsourced chargers',
      );
      expect(await store.countStationsBySource('ocm', 'ES')).toBe(0);
      expect(await store.countStationsBySource('reve', 'ES')).toBe(5);
      expect(await store.countStationsBySource('ocm', 'PT')).toBe(3);

      // Naming the crowdsourced feed by hand brings its rows back (duplicate pins).
      await run(crowdsourced('ES'));
      expect(await store.countStationsBySource('ocm', 'ES')).toBe(2);
    });

    it('Germany: a healthy registry run prunes what it no longer lists and retires crowdsourced rows', async () => {
      await run(crowdsourced('DE'));
      expect(await store.countStationsBySource('ocm', 'DE')).toBe(2);
      fake.route('/register.csv', { body: registerWithDresden() });
      const registry = (minStations: number) =>
        bnetzaScraper({ url: `${fake.url}/register.csv`, minStations });

      const withDresden = await run(registry(3));
      expect(withDresden.summary).toMatchObject({ stations: 5, errors: [] });
      expect(withDresden.log.lines).toContain(
        '[bnetza] DE: pruned 0 stations no longer listed; retired 2 crowdsourced chargers',
      );
      expect(await store.countStationsBySource('ocm', 'DE')).toBe(0);

      // Dresden left the register; a thin run (below the floor) deletes nothing.
      await run(crowdsourced('DE'));
      fake.route('/register.csv', { body: fixture('bnetza-ladesaeulenregister.csv') });
      const thin = await run(registry(10));
      expect(thin.log.lines).toContain(
        '[bnetza] DE: refreshed 4 stations, fewer than 10; skipped pruning and retiring',
      );
      expect(await store.countStationsBySource('bnetza', 'DE')).toBe(5);
      expect(await store.countStationsBySource('ocm', 'DE')).toBe(2);

      // A failed download changes nothing either.
      fake.route('/register.csv', { status: 500, body: '' });
      const failed = await run(registry(3));
      expect(failed.summary.errors).toEqual([`Fatal: HTTP 500 from ${fake.url.slice('http://'.length)}`]);
      expect(await store.countStationsBySource('bnetza', 'DE')).toBe(5);

      // A healthy run above the floor prunes Dresden and retires the crowdsourced rows again.
      fake.route('/register.csv', { body: fixture('bnetza-ladesaeulenregister.csv') });
      const healthy = await run(registry(3));
      expect(healthy.log.lines).toContain(
        '[bnetza] DE: pruned 1 stations no longer listed; retired 2 crowdsourced chargers',
      );
      expect(await store.countStationsBySource('bnetza', 'DE')).toBe(4);
      expect(await store.countStationsBySource('ocm', 'DE')).toBe(0);
    });
  },
);
