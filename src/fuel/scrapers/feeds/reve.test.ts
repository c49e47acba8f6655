import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../testing/context';
import { type FakeFeeds, fixture, startFakeFeeds } from '../testing/fake-feeds';
import { REVE_KEY, reveHandler } from '../testing/feed-routes';
import { reveScraper, reveStation } from './reve';

/** An hour whose number makes the window start at the last of three pages: (H × 2) mod 3 = 2. */
const HOUR = 493_000;
const NOW = HOUR * 3_600_000;

describe('Spanish charger registry (5 requests an hour)', () => {
  it('builds name and brand from the owner, power from the connectors in watts', () => {
    const [madrid, a2, barcelona, zero, valencia] = JSON.parse(
      fixture('reve-locations.json').toString('utf8'),
    ).map(reveStation);
    expect(madrid).toMatchObject({
      externalId: 'reve-15001',
      brand: 'Iberdrola',
      name: 'Iberdrola — 22 kW',
      address: 'Calle de Alcalá 100, 28009',
      city: 'Madrid',
      lat: 40.42212,
      lon: -3.67432,
      powerKw: 22,
      type: 'ev_charger',
    });
    expect(a2).toMatchObject({ brand: 'Zunder', powerKw: 400 });
    expect(barcelona).toMatchObject({ brand: 'ENDESA X WAY, S.L.', name: 'ENDESA X WAY, S.L. — 50 kW' });
    expect(zero).toBeNull();
    expect(valencia).toMatchObject({ brand: null, name: 'Punto de recarga', powerKw: null });
  });

  describe('over HTTP', () => {
    let fake: FakeFeeds;
    const make = (path: string) =>
      reveScraper({ baseUrl: `${fake.url}${path}`, apiKey: REVE_KEY, pagesPerRun: 2, cutoverRatio: 0.95 });
    const pagesAsked = (path: string) =>
      fake.requests.filter((r) => r.path === `${path}/locations`).map((r) => Number(r.query.get('page')));
    beforeAll(async () => {
      fake = await startFakeFeeds();
    });
    afterAll(() => fake.close());

    it('reads the pages the clock points to, within 5 requests an hour, then idles until the next hour', async () => {
      fake.route('/reve-a/locations', reveHandler({ perPage: 2 }));
      const scraper = make('/reve-a');
      const ctx = testContext({ now: NOW });

      const first = await scraper.fetch(ctx);
      expect(pagesAsked('/reve-a')).toEqual([1, 3]);
      expect(first.stations.map((s) => s.externalId)).toEqual([
        'reve-15001',
        'reve-15002',
        'reve-15005',
        'reve-15006',
      ]);
      expect(first.idle).toBeUndefined();

      await scraper.fetch(ctx);
      expect(pagesAsked('/reve-a')).toEqual([1, 3, 3, 1]);
      await scraper.fetch(ctx);
      expect(pagesAsked('/reve-a')).toEqual([1, 3, 3, 1, 3]);

      const spent = await scraper.fetch(ctx);
      expect(pagesAsked('/reve-a')).toHaveLength(5);
      expect(spent.idle).toBe('nothing fetched within the hourly limit');
      expect(ctx.log.lines).toEqual(['[reve] Hourly request limit reached; stopping until the next run']);

      ctx.advance(3_600_000);
      await scraper.fetch(ctx);
      // Next hour: the window moves on by two pages, (H+1) × 2 mod 3 = 1 → pages 2 and 3.
      expect(pagesAsked('/reve-a').slice(5)).toEqual([2, 3]);
    });

    it('on 429 stops for the hour and keeps what it read, without an error', async () => {
      fake.route('/reve-b/locations', reveHandler({ perPage: 2, allowance: 1 }));
      const ctx = testContext({ now: NOW });
      const scraper = make('/reve-b');
      const result = await scraper.fetch(ctx);
      expect(result.stations).toHaveLength(2);
      expect(result.idle).toBeUndefined();
      expect(ctx.log.lines).toEqual(['[reve] Hourly request limit reached; stopping until the next run']);
      const again = await scraper.fetch(ctx);
      expect(again.idle).toBeDefined();
      expect(pagesAsked('/reve-b')).toEqual([1, 3]);
    });

    it('a first request answered 429 hands over nothing and is idle, not failed', async () => {
      fake.route('/reve-c/locations', reveHandler({ allowance: 0 }));
      const result = await make('/reve-c').fetch(testContext({ now: NOW }));
      expect(result).toMatchObject({ stations: [], idle: 'nothing fetched within the hourly limit' });
    });

    it('needs its key, and fails on a rejected one', async () => {
      fake.route('/reve-d/locations', reveHandler());
      const keyless = reveScraper({
        baseUrl: `${fake.url}/reve-d`,
        apiKey: undefined,
        pagesPerRun: 4,
        cutoverRatio: 0.95,
      });
      await expect(keyless.fetch(testContext())).rejects.toThrow('APP_REVE_API_KEY not set');
      const wrong = reveScraper({
        baseUrl: `${fake.url}/reve-d`,
        apiKey: 'expired',
        pagesPerRun: 4,
        cutoverRatio: 0.95,
      });
      await expect(wrong.fetch(testContext())).rejects.toThrow('HTTP 401');
    });
  });
});
