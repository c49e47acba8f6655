import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../testing/context';
import { type FakeFeeds, fixture, startFakeFeeds } from '../testing/fake-feeds';
import { denmarkHandler, FEED_PATHS } from '../testing/feed-routes';
import { danishFuel, danishTown, denmarkScraper, parseDenmark } from './denmark';

const answer = () => JSON.parse(fixture('dk-stations-all.json').toString('utf8'));

describe('Denmark (keyed JSON feed)', () => {
  it('identifies stations by operator and station id, and reads the town after the postcode', () => {
    const { stations } = parseDenmark(answer());
    expect(stations.map((s) => s.externalId)).toEqual([
      'dk-3-1021',
      'dk-7-1021',
      'dk-12-901',
      'dk-14-77',
      'dk-3-88',
    ]);
    expect(stations[0]).toMatchObject({ brand: 'Circle K', city: 'Aarhus V' });
    expect(danishTown('Hobrovej 300, 9200 Aalborg SV')).toBe('Aalborg SV');
  });

  it('matches product names exactly, then by rule, and drops what matches nothing', () => {
    const { prices } = parseDenmark(answer());
    const of = (id: string) => prices.filter((p) => p.externalId === id).map((p) => `${p.fuel}=${p.price}`);
    expect(of('dk-3-1021')).toEqual(['E5=13.09', 'E10=12.89', 'B7=12.19', 'B7_PREMIUM=12.69', 'ADBLUE=7.49']);
    expect(of('dk-7-1021')).toEqual(['E10=12.79', 'E5_PREMIUM=13.99', 'B7=12.09', 'HVO=15.49']);
    expect(of('dk-12-901')).toEqual(['E5=13.19', 'E5_PREMIUM=14.29', 'B7_PREMIUM=13.39', 'B7=12.39']);
    expect(of('dk-3-88')).toEqual(['E5=12.95', 'E5_PREMIUM=13.45', 'E5_98=13.89']);
    expect(danishFuel('Vask Premium')).toBeNull();
    expect(danishFuel('Oktan 95 E10 Extra')).toBe('E10');
  });

  it('skips missing coordinates, swaps exchanged ones, hands over zero prices for the band to drop', () => {
    const { stations, prices } = parseDenmark(answer());
    expect(stations.find((s) => s.externalId === 'dk-11-55')).toBeUndefined();
    expect(stations.find((s) => s.externalId === 'dk-3-88')).toMatchObject({ lat: 57.01201, lon: 9.90312 });
    expect(prices.filter((p) => p.externalId === 'dk-14-77')).toEqual([
      { externalId: 'dk-14-77', fuel: 'E5', price: 0, currency: 'DKK' },
    ]);
  });

  describe('over HTTP', () => {
    let fake: FakeFeeds;
    const scraper = (apiKey: string | undefined) =>
      denmarkScraper(`${fake.url}${FEED_PATHS.DK}`, {
        apiKey,
        fallbackUrl: `${fake.url}${FEED_PATHS.DK_FALLBACK}`,
      });
    beforeAll(async () => {
      fake = await startFakeFeeds();
      fake.route(`${FEED_PATHS.DK}/v1/stations/all`, denmarkHandler);
    });
    afterAll(() => fake.close());

    it('sends the key and the country box', async () => {
      fake.requests.length = 0;
      const { stations } = await scraper('dk-test-key').fetch(testContext());
      expect(stations).toHaveLength(5);
      expect(fake.requests[0]?.query.get('bbox')).toBe('8,54.5,15.2,57.8');
    });

    it('without a key falls back to the retired feed, which fails', async () => {
      const ctx = testContext();
      await expect(scraper(undefined).fetch(ctx)).rejects.toThrow('HTTP 404');
      expect(ctx.log.lines).toEqual([
        '[fuelprices_dk] APP_DK_FUEL_API_KEY not set; trying the fallback feed',
      ]);
    });

    it('with a rejected key falls back too', async () => {
      const ctx = testContext();
      await expect(scraper('wrong').fetch(ctx)).rejects.toThrow('HTTP 404');
      expect(ctx.log.lines).toEqual(['[fuelprices_dk] key rejected (HTTP 401); trying the fallback feed']);
    });
  });
});
