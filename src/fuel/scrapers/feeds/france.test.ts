import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../testing/context';
import { type FakeFeeds, fixture, startFakeFeeds } from '../testing/fake-feeds';
import { franceScraper, parseFrance } from './france';

const records = () => JSON.parse(fixture('fr-prix-carburants.json').toString('utf8'));

describe('France (prix-carburants open-data export)', () => {
  it('reads stations once each, with prices per fuel', () => {
    const { stations, prices } = parseFrance(records());
    expect(stations.filter((s) => s.externalId === '75012003')).toHaveLength(1);
    expect(stations.find((s) => s.externalId === '1000001')).toMatchObject({
      name: 'Station SAINT-DENIS-LèS-BOURG',
      brand: null,
      lat: 46.20114,
      lon: 5.19791,
    });
    expect(prices).toContainEqual({ externalId: '75012003', fuel: 'LPG', price: 0.999, currency: 'EUR' });
  });

  it('files E85 under its own code, never as E10', () => {
    const { prices } = parseFrance(records());
    expect(prices).toContainEqual({ externalId: '75012003', fuel: 'E85', price: 0.899, currency: 'EUR' });
    expect(prices.filter((p) => p.externalId === '75012003' && p.fuel === 'E10')).toHaveLength(0);
  });

  it('falls back to the PTV coordinates and reads prices in thousandths', () => {
    const { stations, prices } = parseFrance(records());
    expect(stations.find((s) => s.externalId === '67000010')).toMatchObject({ lat: 48.5734, lon: 7.7521 });
    expect(prices).toContainEqual({ externalId: '67000010', fuel: 'B7', price: 1.739, currency: 'EUR' });
  });

  it('keeps Corsica, skips overseas departments and stations without coordinates', () => {
    const ids = parseFrance(records()).stations.map((s) => s.externalId);
    expect(ids).toContain('20000005');
    expect(ids).not.toContain('97400001');
    expect(ids).not.toContain('13000099');
  });

  it('rejects an answer that is not a list', () => {
    expect(() => parseFrance({ error: 'quota' })).toThrow('expected a JSON array');
  });

  describe('over HTTP', () => {
    let fake: FakeFeeds;
    beforeAll(async () => {
      fake = await startFakeFeeds();
    });
    afterAll(() => fake.close());

    it('downloads the bulk export', async () => {
      fake.route('/fr', { body: fixture('fr-prix-carburants.json') });
      const { stations } = await franceScraper(`${fake.url}/fr`).fetch(testContext());
      expect(stations).toHaveLength(5);
    });

    it('fails on a truncated export', async () => {
      fake.route('/fr', { body: fixture('fr-prix-carburants.json'), truncate: true });
      await expect(franceScraper(`${fake.url}/fr`).fetch(testContext())).rejects.toThrow();
    });
  });
});
