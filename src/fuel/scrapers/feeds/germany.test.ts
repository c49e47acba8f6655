import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../testing/context';
import { type FakeFeeds, fixture, startFakeFeeds } from '../testing/fake-feeds';
import { FEED_PATHS, germanyHandler } from '../testing/feed-routes';
import { germanFuel, germanyScraper, mergeGermany } from './germany';

const answer = () => JSON.parse(fixture('de-stations-search.json').toString('utf8'));

describe('Germany (market transparency unit data, keyed)', () => {
  it('maps fuel names, then categories, keeping the first offer of a code', () => {
    const stations = new Map();
    const prices = new Map();
    mergeGermany(answer(), stations, prices);
    const of = (id: string) =>
      [...prices.values()].filter((p) => p.externalId === id).map((p) => `${p.fuel}=${p.price}`);
    expect(of('51d4b477-a095-1aa0-e100-80009459e03a')).toEqual([
      'B7=1.659',
      'E5=1.799',
      'E10=1.739',
      'E5_98=1.889',
    ]);
    expect(of('005056ba-7cb6-1ed2-bceb-82ea369c0d2d')).toEqual([
      'B7=1.689',
      'E10=1.769',
      'LPG=0.999',
      'CNG=1.349',
    ]);
    expect(germanFuel('gasoline', 'Super E5 Premium')).toBe('E5');
  });

  it('treats null and false prices as not sold, an empty brand as none, and swaps exchanged coordinates', () => {
    const stations = new Map();
    const prices = new Map();
    mergeGermany(answer(), stations, prices);
    expect([...prices.values()].filter((p) => p.externalId.startsWith('e1a15081'))).toHaveLength(0);
    expect(stations.get('e1a15081-254f-9107-e040-0b0a3dfe563c')).toMatchObject({
      brand: null,
      city: 'Löcknitz',
    });
    expect(stations.get('a3b5e8c1-0000-4c6e-9c1e-d7f34f0e1b11')).toMatchObject({ lat: 54.0887, lon: 12.134 });
    expect(stations.size).toBe(4);
  });

  describe('over HTTP', () => {
    let fake: FakeFeeds;
    const url = () => `${fake.url}${FEED_PATHS.DE}`;
    beforeAll(async () => {
      fake = await startFakeFeeds();
      fake.route(`${FEED_PATHS.DE}/stations/search`, germanyHandler);
    });
    afterAll(() => fake.close());

    it('fails every run without its key, before any request', async () => {
      fake.requests.length = 0;
      await expect(germanyScraper(url(), { apiKey: undefined }).fetch(testContext())).rejects.toThrow(
        'APP_DE_FUEL_API_KEY not set',
      );
      expect(fake.requests).toHaveLength(0);
    });

    it('covers the country with 25 km circles, pausing between requests', async () => {
      fake.requests.length = 0;
      const ctx = testContext();
      const { stations } = await germanyScraper(url(), { apiKey: 'k', gridStepKm: 150 }).fetch(ctx);
      expect(stations).toHaveLength(4);
      expect(fake.requests.length).toBeGreaterThan(10);
      expect(fake.requests.every((r) => r.query.get('rad') === '25')).toBe(true);
      expect(ctx.sleeps).toEqual(Array(fake.requests.length - 1).fill(100));
    });

    it('pauses 10 s on its rate limit (503) and moves on', async () => {
      let calls = 0;
      fake.route('/de-busy/stations/search', (request) =>
        ++calls === 2 ? { status: 503 } : germanyHandler(request),
      );
      const ctx = testContext();
      const { stations } = await germanyScraper(`${fake.url}/de-busy`, {
        apiKey: 'k',
        gridStepKm: 300,
      }).fetch(ctx);
      expect(stations).toHaveLength(4);
      expect(ctx.sleeps).toContain(10_000);
      expect(ctx.log.lines.some((line) => /^\[tankerkoenig\] 1 of \d+ circles failed/.test(line))).toBe(true);
    });

    it('stops at once when the key is rejected', async () => {
      fake.route('/de-bad/stations/search', { status: 403, body: '{}' });
      await expect(
        germanyScraper(`${fake.url}/de-bad`, { apiKey: 'k' }).fetch(testContext()),
      ).rejects.toThrow('HTTP 403');
    });
  });
});
