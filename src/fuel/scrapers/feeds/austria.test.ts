import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../testing/context';
import { type FakeFeeds, fixture, startFakeFeeds } from '../testing/fake-feeds';
import { austriaHandler, FEED_PATHS } from '../testing/feed-routes';
import { austriaScraper, mergeAustria } from './austria';

const answer = (fuel: string) => JSON.parse(fixture(`at-by-address-${fuel}.json`).toString('utf8'));

describe('Austria (regulator "near this point" search)', () => {
  it('merges the answers of several points and fuels; GAS is CNG', () => {
    const stations = new Map();
    const prices = new Map();
    for (const fuel of ['DIE', 'SUP', 'GAS', 'DIE']) mergeAustria(answer(fuel), stations, prices);
    expect(stations.size).toBe(5);
    const bp = [...prices.values()].filter((p) => p.externalId === '1003456');
    expect(bp).toEqual([
      { externalId: '1003456', fuel: 'B7', price: 1.619, currency: 'EUR' },
      { externalId: '1003456', fuel: 'E5', price: 1.699, currency: 'EUR' },
    ]);
    expect([...prices.values()].find((p) => p.externalId === '1007777')?.fuel).toBe('CNG');
  });

  it('keeps a station listed without a price, swaps exchanged coordinates, skips missing ones', () => {
    const stations = new Map();
    mergeAustria(answer('DIE'), stations, new Map());
    expect(stations.get('1005000')).toMatchObject({
      address: 'Salzburger Straße 100, 4052',
      city: 'Ansfelden',
    });
    expect(stations.get('1004500')).toMatchObject({ lat: 48.22131, lon: 14.23409 });
    expect(stations.has('1006000')).toBe(false);
  });

  it('keeps the cheapest price seen for a fuel', () => {
    const prices = new Map();
    const cheaper = answer('DIE').map((row: { prices: { amount: number }[] }) => ({
      ...row,
      prices: row.prices.map((p) => ({ ...p, amount: p.amount - 0.1 })),
    }));
    mergeAustria(answer('DIE'), new Map(), prices);
    mergeAustria(cheaper, new Map(), prices);
    expect(prices.get('1003456\u0000B7').price).toBeCloseTo(1.519);
  });

  describe('over HTTP', () => {
    let fake: FakeFeeds;
    beforeAll(async () => {
      fake = await startFakeFeeds();
      fake.route(`${FEED_PATHS.AT}/search/gas-stations/by-address`, austriaHandler);
    });
    afterAll(() => fake.close());

    it('covers the country with a grid, once per fuel', async () => {
      fake.requests.length = 0;
      const scraper = austriaScraper(`${fake.url}${FEED_PATHS.AT}`, { gridStepKm: 100 });
      const { stations } = await scraper.fetch(testContext());
      expect(stations).toHaveLength(5);
      const perFuel = (fuel: string) => fake.requests.filter((r) => r.query.get('fuelType') === fuel).length;
      expect(perFuel('DIE')).toBeGreaterThan(5);
      expect(perFuel('DIE')).toBe(perFuel('SUP'));
      expect(perFuel('GAS')).toBe(perFuel('SUP'));
      expect(fake.requests.every((r) => r.query.get('includeClosed') === 'false')).toBe(true);
    });

    it('skips failing points but fails when every point fails', async () => {
      fake.route('/at-down/search/gas-stations/by-address', { status: 500, body: 'down' });
      await expect(
        austriaScraper(`${fake.url}/at-down`, { gridStepKm: 150 }).fetch(testContext()),
      ).rejects.toThrow('HTTP 500');
    });
  });
});
