import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../testing/context';
import { type FakeFeeds, fixture, startFakeFeeds } from '../testing/fake-feeds';
import { mergeRetailerFeed, ukScraper } from './uk';

const feed = (name: string) => JSON.parse(fixture(`gb-${name}-fuel_prices_data.json`).toString('utf8'));

describe('United Kingdom (retailer JSON feeds)', () => {
  it('converts pence to pounds, skips placeholders and keeps each site once', () => {
    const stations = new Map();
    const prices: { externalId: string; fuel: string; price: number }[] = [];
    mergeRetailerFeed(feed('asda'), stations, prices as never);
    expect([...stations.keys()]).toEqual(['gbcbh1a', 'gbdbc2d', 'gbfbn3x']);
    expect(prices.filter((p) => p.externalId === 'gbcbh1a').map((p) => [p.fuel, p.price])).toEqual([
      ['E10', 1.397],
      ['E5', 1.497],
      ['B7', 1.467],
    ]);
    expect(prices.filter((p) => p.externalId === 'gbdbc2d').map((p) => p.fuel)).toEqual(['E10', 'B7']);
    expect(prices.filter((p) => p.externalId === 'gbfbn3x').map((p) => p.fuel)).toEqual(['E10']);
  });

  it('reads text coordinates, Northern Ireland, prices already in pounds, and swapped positions', () => {
    const stations = new Map();
    const prices: { externalId: string; fuel: string; price: number }[] = [];
    mergeRetailerFeed(feed('asda'), stations, prices as never);
    mergeRetailerFeed(feed('tesco'), stations, prices as never);
    expect(stations.get('gbdbc2d')).toMatchObject({ lat: 55.9612, lon: -3.16233, city: '' });
    expect(stations.get('gbfbn3x')).toMatchObject({ lat: 54.58341 });
    expect(prices.find((p) => p.externalId === '2310' && p.fuel === 'E5')?.price).toBe(1.579);
    expect(stations.get('2555')).toMatchObject({ lat: 50.12277, lon: -5.52012 });
  });

  describe('over HTTP', () => {
    let fake: FakeFeeds;
    beforeAll(async () => {
      fake = await startFakeFeeds();
      fake.route('/asda.json', { body: fixture('gb-asda-fuel_prices_data.json') });
      fake.route('/tesco.json', { body: fixture('gb-tesco-fuel_prices_data.json') });
      fake.route('/gone.json', { status: 404, body: '' });
    });
    afterAll(() => fake.close());

    it('skips a failing retailer and keeps the others', async () => {
      const ctx = testContext();
      const urls = ['/asda.json', '/gone.json', '/tesco.json'].map((p) => `${fake.url}${p}`);
      const { stations } = await ukScraper(urls).fetch(ctx);
      expect(stations).toHaveLength(5);
      expect(ctx.log.lines).toContain(
        `[cma] Skipped feed ${fake.url.slice(7)}/gone.json: HTTP 404 from ${fake.url.slice(7)}`,
      );
    });

    it('fails when every retailer fails', async () => {
      await expect(ukScraper([`${fake.url}/gone.json`]).fetch(testContext())).rejects.toThrow('HTTP 404');
    });
  });
});
