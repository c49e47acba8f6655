import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../testing/context';
import { type FakeFeeds, fixture, startFakeFeeds } from '../testing/fake-feeds';
import { FEED_PATHS, fuelWatchHandler, installNswRoutes, NSW_CREDENTIALS } from '../testing/feed-routes';
import type { RawPrice, RawStation } from '../types';
import {
  mergeFuelWatch,
  newSouthWalesScraper,
  parseNsw,
  WA_PRODUCTS,
  westernAustraliaScraper,
} from './australia';

describe('Australia', () => {
  describe('Western Australia (one RSS feed per product)', () => {
    it('reads items, entities and CDATA, with cents turned into dollars', () => {
      const stations = new Map<string, RawStation>();
      const prices: RawPrice[] = [];
      mergeFuelWatch(fixture('au-fuelwatch-product-1.xml').toString('utf8'), 'U91', stations, prices);
      expect(stations.size).toBe(3);
      const heights = stations.get('wa--31.82730_115.86512');
      expect(heights).toMatchObject({
        brand: 'Caltex Woolworths',
        address: 'Cnr Mirrabooka Ave & Hepburn Ave',
        city: 'ALEXANDER HEIGHTS',
      });
      expect(stations.get('wa--30.75430_121.47010')?.name).toBe('Ampol Foodary Kalgoorlie – Boulder Rd');
      expect(prices).toContainEqual({
        externalId: 'wa--31.82730_115.86512',
        fuel: 'U91',
        price: 1.789,
        currency: 'AUD',
      });
    });

    it('merges the products of one site and hands over a mistyped price for the band to drop', () => {
      const stations = new Map<string, RawStation>();
      const prices: RawPrice[] = [];
      mergeFuelWatch(fixture('au-fuelwatch-product-1.xml').toString('utf8'), 'U91', stations, prices);
      mergeFuelWatch(fixture('au-fuelwatch-product-4.xml').toString('utf8'), 'B7', stations, prices);
      expect(stations.size).toBe(4);
      expect(prices.filter((p) => p.externalId === 'wa--31.82730_115.86512').map((p) => p.fuel)).toEqual([
        'U91',
        'B7',
      ]);
      expect(prices.find((p) => p.externalId === 'wa--15.77370_128.73850')?.price).toBe(19.55);
    });

    it('files unleaded 91 under U91 and premium 95 as the 95-octane petrol (E5)', () => {
      expect(WA_PRODUCTS['1']).toBe('U91');
      expect(WA_PRODUCTS['2']).toBe('E5');
      expect(WA_PRODUCTS['6']).toBe('E5_98');
    });

    it('rejects a body that is not RSS', () => {
      expect(() => mergeFuelWatch('<html>maintenance</html>', 'E5', new Map(), [])).toThrow(
        'Not an RSS document',
      );
    });
  });

  describe('New South Wales (key + secret)', () => {
    it('maps station codes, fuel codes and the town; skips unknown fuels and unknown stations', () => {
      const { stations, prices } = parseNsw(JSON.parse(fixture('au-nsw-fuel-prices.json').toString('utf8')));
      expect(stations.map((s) => s.externalId)).toEqual(['nsw_101', 'nsw_202']);
      expect(stations[0]).toMatchObject({ brand: '7-Eleven', city: 'Pyrmont' });
      expect(prices.map((p) => `${p.externalId}:${p.fuel}=${p.price}`)).toEqual([
        // Unleaded 91 under its own code, not as 95-octane E5.
        'nsw_101:U91=1.899',
        'nsw_101:E10=1.879',
        'nsw_101:E5_98=2.149',
        'nsw_202:B7=1.999',
        'nsw_202:B7_PREMIUM=2.099',
        'nsw_202:LPG=0.999',
      ]);
    });
  });

  describe('over HTTP', () => {
    let fake: FakeFeeds;
    beforeAll(async () => {
      fake = await startFakeFeeds();
      fake.route(FEED_PATHS.AU, fuelWatchHandler);
      installNswRoutes(fake);
    });
    afterAll(() => fake.close());

    it('Western Australia asks once per product', async () => {
      fake.requests.length = 0;
      const { stations } = await westernAustraliaScraper(`${fake.url}${FEED_PATHS.AU}`).fetch(testContext());
      expect(stations).toHaveLength(4);
      expect(fake.requests.map((r) => r.query.get('Product'))).toEqual(Object.keys(WA_PRODUCTS));
    });

    it('New South Wales exchanges key and secret for a token, then reads prices', async () => {
      const scraper = newSouthWalesScraper(`${fake.url}${FEED_PATHS.AU_NSW}`, {
        apiKey: NSW_CREDENTIALS.key,
        apiSecret: NSW_CREDENTIALS.secret,
      });
      const { prices } = await scraper.fetch(testContext());
      expect(prices).toHaveLength(6);
      const priceRequest = fake.requests.at(-1);
      expect(priceRequest?.headers.requesttimestamp).toBe('21/04/2026 10:00:00 AM');
      expect(priceRequest?.headers.transactionid).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('New South Wales fails without both credentials, and on a wrong secret', async () => {
      const url = `${fake.url}${FEED_PATHS.AU_NSW}`;
      await expect(
        newSouthWalesScraper(url, { apiKey: NSW_CREDENTIALS.key, apiSecret: undefined }).fetch(testContext()),
      ).rejects.toThrow('APP_AU_NSW_API_KEY and APP_AU_NSW_API_SECRET must both be set');
      await expect(
        newSouthWalesScraper(url, { apiKey: NSW_CREDENTIALS.key, apiSecret: 'wrong' }).fetch(testContext()),
      ).rejects.toThrow('HTTP 401');
    });
  });
});
