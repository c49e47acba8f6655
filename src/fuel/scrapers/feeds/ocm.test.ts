import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OcmSettings } from '../config';
import { testContext } from '../testing/context';
import { type FakeFeeds, fixture, json, startFakeFeeds } from '../testing/fake-feeds';
import { OCM_KEY, ocmHandler } from '../testing/feed-routes';
import { OcmGate, ocmScraper, ocmStation } from './ocm';

const SETTINGS: OcmSettings = {
  apiKey: OCM_KEY,
  maxRequests: 800,
  maxConcurrency: 1,
  tileDelayMs: 600,
  timeBudgetMs: 15 * 60 * 1000,
  maxResults: 5000,
  minTileDeg: 0.05,
  trustSpanDeg: 2,
};
const pois = () => JSON.parse(fixture('ocm-poi.json').toString('utf8'));

/** `count` operational points in a country, spread over a box (or all on one spot). */
function syntheticPois(count: number, country: string, box: [number, number, number, number]) {
  const [minLat, minLon, maxLat, maxLon] = box;
  return Array.from({ length: count }, (_, i) => ({
    ID: 900000 + i,
    StatusTypeID: 50,
    OperatorInfo: { ID: 5, Title: 'Stadtwerke' },
    AddressInfo: {
      Title: `Charger ${i}`,
      Latitude: minLat + ((maxLat - minLat) * ((i * 7) % count)) / count,
      Longitude: minLon + ((maxLon - minLon) * ((i * 13) % count)) / count,
      Country: { ISOCode: country },
    },
    Connections: [{ PowerKW: 22 }],
  }));
}

describe('crowdsourced charger registry (API v3)', () => {
  it('takes the brand from the operator and the highest plausible connector power', () => {
    const [lisbon, porto, braga, broken, , , ionity] = pois().map(ocmStation);
    expect(lisbon).toMatchObject({
      externalId: 'ocm-100201',
      brand: 'MOBI.E',
      name: 'Posto MOBI.E Lisboa Parque das Nações',
      address: 'Avenida Dom João II 40, 1990-094',
      city: 'Lisboa',
      type: 'ev_charger',
      powerKw: 50,
    });
    expect(porto).toMatchObject({ brand: null, powerKw: 11 });
    expect(braga).toMatchObject({ name: 'MOBI.E Charging', powerKw: null });
    expect(broken).toBeNull();
    expect(ionity?.powerKw).toBe(350);
  });

  it('keeps a connector power to one decimal (19.2 kW stays 19.2)', () => {
    const [lisbon] = pois();
    const station = ocmStation({
      ...lisbon,
      Connections: [{ PowerKW: 3.7 }, { PowerKW: 19.2 }, { PowerKW: 7.36 }],
    });
    expect(station?.powerKw).toBe(19.2);
    expect(ocmStation({ ...lisbon, Connections: [{ PowerKW: 7.36 }] })?.powerKw).toBe(7.4);
  });

  it('the gate lets at most maxConcurrency requests run and pauses before each', async () => {
    const gate = new OcmGate(2, 600);
    const ctx = testContext();
    let active = 0;
    let peak = 0;
    const task = async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setTimeout(resolve, 5));
      active--;
    };
    await Promise.all(Array.from({ length: 6 }, () => gate.run(ctx, task)));
    expect(peak).toBe(2);
    expect(ctx.sleeps).toEqual(Array(6).fill(600));
  });

  describe('over HTTP', () => {
    let fake: FakeFeeds;
    const scraper = (country: string, settings: Partial<OcmSettings> = {}, base = '/ocm/v3') =>
      ocmScraper(country, {
        baseUrl: `${fake.url}${base}`,
        settings: { ...SETTINGS, ...settings },
        gate: new OcmGate(1, settings.tileDelayMs ?? SETTINGS.tileDelayMs),
      });
    beforeAll(async () => {
      fake = await startFakeFeeds();
      fake.route('/ocm/v3/poi/', ocmHandler());
    });
    afterAll(() => fake.close());

    it('without a key logs that and hands over nothing', async () => {
      const ctx = testContext();
      const result = await scraper('PT', { apiKey: undefined }).fetch(ctx);
      expect(result.stations).toEqual([]);
      expect(ctx.log.lines).toEqual(['[ocm] APP_OCM_API_KEY not set, skipping']);
    });

    it('a small country fits one full (non-compact) answer without a box', async () => {
      fake.requests.length = 0;
      const ctx = testContext();
      const { stations } = await scraper('PT').fetch(ctx);
      expect(stations.map((s) => s.externalId)).toEqual(['ocm-100201', 'ocm-100202', 'ocm-100203']);
      expect(fake.requests).toHaveLength(1);
      const query = fake.requests[0]?.query;
      expect(query?.get('compact')).toBe('false');
      expect(query?.get('maxresults')).toBe('5000');
      expect(query?.get('boundingbox')).toBeNull();
      expect(ctx.sleeps).toEqual([600]);
    });

    it('splits full answers into tiles, then wide tiles that hold anything, and merges by id', async () => {
      const many = syntheticPois(60, 'DE', [47.5, 6, 54.9, 14.9]);
      fake.route('/ocm-de/v3/poi/', ocmHandler(many));
      fake.requests.length = 0;
      const ctx = testContext();
      const { stations } = await scraper('DE', { maxResults: 20, tileDelayMs: 0 }, '/ocm-de/v3').fetch(ctx);
      expect(new Set(stations.map((s) => s.externalId)).size).toBe(60);
      expect(stations).toHaveLength(60);
      const widths = fake.requests.slice(1).map((r) => {
        const [, lon1, , lon2] = (r.query.get('boundingbox')?.match(/-?\d+(\.\d+)?/g) ?? []).map(Number);
        return Math.abs((lon2 as number) - (lon1 as number));
      });
      expect(widths.slice(0, 4)).toEqual([180, 180, 180, 180]);
      expect(Math.min(...widths)).toBeLessThanOrEqual(2);
      expect(ctx.log.lines).toEqual([]);
    });

    it('stops at the request budget, keeps what it found and says coverage may be partial', async () => {
      fake.route('/ocm-de/v3/poi/', ocmHandler(syntheticPois(60, 'DE', [47.5, 6, 54.9, 14.9])));
      const ctx = testContext();
      const { stations } = await scraper(
        'DE',
        { maxResults: 20, maxRequests: 3, tileDelayMs: 0 },
        '/ocm-de/v3',
      ).fetch(ctx);
      expect(stations.length).toBe(20);
      expect(ctx.log.lines).toEqual(['[ocm] DE: request budget of 3 reached — coverage may be partial']);
    });

    it('stops at the time budget', async () => {
      fake.route('/ocm-de/v3/poi/', ocmHandler(syntheticPois(60, 'DE', [47.5, 6, 54.9, 14.9])));
      const ctx = testContext();
      const now = ctx.now;
      // Every clock reading moves a minute on: each request then costs one minute of active time.
      ctx.now = () => {
        ctx.advance(60_000);
        return now();
      };
      await scraper('DE', { maxResults: 20, tileDelayMs: 0, timeBudgetMs: 3 * 60_000 }, '/ocm-de/v3').fetch(
        ctx,
      );
      expect(ctx.log.lines).toEqual(['[ocm] DE: time budget of 3 min reached — coverage may be partial']);
    });

    it('stops splitting at the minimum tile size', async () => {
      fake.route('/ocm-spot/v3/poi/', ocmHandler(syntheticPois(30, 'FR', [48.85, 2.35, 48.85, 2.35])));
      const ctx = testContext();
      const { stations } = await scraper('FR', { maxResults: 10, tileDelayMs: 0 }, '/ocm-spot/v3').fetch(ctx);
      expect(stations).toHaveLength(10);
      expect(ctx.log.lines).toEqual(['[ocm] FR: minimum tile size reached — coverage may be partial']);
    });

    it('retries 429 honouring Retry-After (capped at 30 s)', async () => {
      let calls = 0;
      const handler = ocmHandler();
      fake.route('/ocm-busy/v3/poi/', (request) => {
        calls++;
        if (calls === 1) return { status: 429, headers: { 'retry-after': '3' } };
        if (calls === 2) return { status: 429, headers: { 'retry-after': '120' } };
        return handler(request);
      });
      const ctx = testContext();
      const { stations } = await scraper('PT', { tileDelayMs: 0 }, '/ocm-busy/v3').fetch(ctx);
      expect(stations).toHaveLength(3);
      expect(ctx.sleeps).toEqual([3000, 30_000]);
    });

    it('without Retry-After waits 1, 2, 4, 8 s, then fails after 4 retries', async () => {
      fake.route('/ocm-down/v3/poi/', { status: 429, body: 'Too Many Requests' });
      const ctx = testContext();
      await expect(scraper('PT', { tileDelayMs: 0 }, '/ocm-down/v3').fetch(ctx)).rejects.toThrow(
        'OCM HTTP 429: rate limited after 4 retries',
      );
      expect(ctx.sleeps).toEqual([1000, 2000, 4000, 8000]);
    });

    it('fails on a wrong key and on an answer that is not a list', async () => {
      await expect(scraper('PT', { apiKey: 'wrong' }).fetch(testContext())).rejects.toThrow('HTTP 403');
      fake.route('/ocm-odd/v3/poi/', json({ error: 'maintenance' }));
      await expect(scraper('PT', {}, '/ocm-odd/v3').fetch(testContext())).rejects.toThrow(
        'not a list of points',
      );
    });
  });
});
