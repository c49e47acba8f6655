// The fuel contract against the live server: the real app in process on port 0, the demo dataset in an
// SQLite store, the fake routing engine, geocoder and rate feed. Every answer is checked against the document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFuelClient } from '../../generated/fuel/client';
import { type ExamplePages, writeExamplePages } from '../../src/common/testing/example-pages';
import { startTestFuel, type TestFuel } from '../../src/fuel/testing/server';
import { itSendsEveryDocumentedExample, useContract } from '../lib/suite';

let fuel: TestFuel;
let pages: ExamplePages;

async function startLive() {
  pages = await writeExamplePages('fuel');
  fuel = await startTestFuel({ webDist: pages.distRoot });
  return {
    kind: 'live' as const,
    url: fuel.url,
    stop: async () => {
      await fuel.close();
      await pages.remove();
    },
  };
}

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('fuel contract, live server', () => {
  const ctx = useContract('fuel', startLive);
  const url = (path: string) => `${ctx.target().url}${path}`;

  itSendsEveryDocumentedExample(ctx, () => ({}));

  it('walks the typical trip through the typed client', async () => {
    const client = createFuelClient({ baseUrl: ctx.target().url });
    const box = await client.GET('/api/stations', {
      params: { query: { bbox: '-3.80,40.35,-3.60,40.50', fuel: 'B7' } },
    });
    expect(box.data?.features.length).toBeGreaterThan(0);
    const near = await client.GET('/api/stations/nearest', {
      params: { query: { lat: 40.4168, lon: -3.7038, radius_km: 5, fuel: 'B7', limit: 3 } },
    });
    expect(near.data?.features).toHaveLength(3);
    const route = await client.POST('/api/route', {
      body: { origin: [-3.7038, 40.4168], destination: [-9.1393, 38.7223] },
    });
    expect(route.data?.routes.length).toBeGreaterThan(0);
    const along = await client.POST('/api/route-stations', {
      body: { geometry: route.data?.routes[0]?.geometry as never, fuel: 'B7', corridorKm: 5 },
    });
    expect(along.data?.features.length).toBeGreaterThan(0);
    const places = await client.GET('/api/geocode', { params: { query: { q: 'Puerta del Sol' } } });
    expect(places.data?.length).toBeGreaterThan(0);
    const rates = await client.GET('/api/exchange-rates');
    expect(rates.data?.base).toBe('EUR');
  });

  it.each([
    ['listStations', '/api/stations?bbox=-200,0,0,0&fuel=B7'],
    ['listStations', '/api/stations?bbox=-3.8,40.35,-3.6,40.5&fuel=DIESEL'],
    ['listNearestStations', '/api/stations/nearest?lat=40&lon=-3&radius_km=500&fuel=B7'],
    ['geocode', '/api/geocode?q='],
    ['getStationPriceHistory', '/api/stations/ES/1022/history?fuel=DIESEL'],
    ['getStationPriceHistory', '/api/stations/ES/1022/history?fuel=B7&days=0'],
    ['getDailyPriceStats', '/api/stats/daily?country=España&fuel=B7'],
  ])('%s: a bad parameter gets the documented 400 (%s)', async (operationId, path) => {
    const res = await fetch(url(path));
    expect(res.status).toBe(400);
    const checked = await ctx.conforms(operationId, res);
    expect(checked.problems).toEqual([]);
    expect(checked.body).toMatchObject({ error: 'Invalid parameters', details: expect.any(Array) });
  });

  it.each([
    ['planRoute', '/api/route', { origin: [0, 95], destination: [1, 1] }],
    [
      'listRouteStations',
      '/api/route-stations',
      { geometry: { type: 'LineString', coordinates: [[0, 0]] }, fuel: 'B7' },
    ],
    [
      'streamRouteDetours',
      '/api/route-detour',
      { stations: [], origin: [0, 0], destination: [1, 1], routeDuration: 1 },
    ],
  ])('%s: a bad body and a broken one get the documented 400s', async (operationId, path, body) => {
    const bad = await fetch(url(path), json(body, { 'X-Forwarded-For': '192.0.2.40' }));
    expect(bad.status).toBe(400);
    expect((await ctx.conforms(operationId, bad)).problems).toEqual([]);
    const broken = await fetch(url(path), json('{"origin":', { 'X-Forwarded-For': '192.0.2.41' }));
    expect(broken.status).toBe(400);
    const checked = await ctx.conforms(operationId, broken);
    expect(checked.problems).toEqual([]);
    expect(checked.body).toEqual({ error: 'Invalid JSON' });
  });

  it('reads a station’s price history and the daily figures through the typed client', async () => {
    const client = createFuelClient({ baseUrl: ctx.target().url });
    const history = await client.GET('/api/stations/{country}/{externalId}/history', {
      params: { path: { country: 'ES', externalId: '1022' }, query: { fuel: 'B7', days: 30 } },
    });
    expect(history.data?.changes.length).toBeGreaterThan(0);
    const daily = await client.GET('/api/stats/daily', { params: { query: { country: 'ES', fuel: 'B7' } } });
    expect(daily.data?.days.length).toBeGreaterThan(0);
    const missing = await fetch(url('/api/stations/ES/no-such-station/history?fuel=B7'));
    const checked = await ctx.conforms('getStationPriceHistory', missing);
    expect(checked).toMatchObject({ status: 404, body: { error: 'Station not found' }, problems: [] });
  });

  it('marks a cut box with the documented header', async () => {
    // The demo dataset is small: the documented header is checked on the answer without a cut here and
    // on a cut answer in src/fuel/http/stations.test.ts.
    const res = await fetch(url('/api/stations?bbox=-180,-90,180,90&fuel=EV'));
    expect(res.headers.get('x-result-truncated')).toBeNull();
    expect((await ctx.conforms('listStations', res)).problems).toEqual([]);
  });

  it('answers the documented 429 once a client used up its minute', async () => {
    const me = { 'X-Forwarded-For': '192.0.2.99' };
    const body = {
      stations: [{ id: 'a', lon: -3.65, lat: 40.45 }],
      origin: [-3.7, 40.4],
      destination: [-3.6, 40.5],
      routeDuration: 600,
    };
    for (let i = 0; i < 10; i++) await (await fetch(url('/api/route-detour'), json(body, me))).text();
    const res = await fetch(url('/api/route-detour'), json(body, me));
    expect(res.status).toBe(429);
    const checked = await ctx.conforms('streamRouteDetours', res);
    expect(checked.problems).toEqual([]);
    expect(checked.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  describe('upstream failures', () => {
    it('routing: the documented 502s', async () => {
      for (const [mode, message] of [
        ['no-route', 'Routing service unavailable'],
        ['garbage', 'Route calculation failed'],
      ] as const) {
        fuel.osrm.mode = mode;
        const res = await fetch(
          url('/api/route'),
          json(
            { origin: [-3.7, 40.4], destination: [-9.1, 38.7] },
            { 'X-Forwarded-For': `192.0.2.${mode.length}` },
          ),
        );
        const checked = await ctx.conforms('planRoute', res);
        expect(checked.problems).toEqual([]);
        expect(checked).toMatchObject({ status: 502, body: { error: message } });
      }
      fuel.osrm.mode = 'error';
      const detour = await fetch(
        url('/api/route-detour'),
        json({
          stations: [{ id: 'x', lon: -5, lat: 39 }],
          origin: [-3.7, 40.4],
          destination: [-9.1, 38.7],
          routeDuration: 100,
        }),
      );
      const lines = await ctx.conforms('streamRouteDetours', detour);
      expect(lines.problems).toEqual([]);
      expect(lines.body).toEqual([{ id: 'x', detourMin: -1 }]);
      fuel.osrm.reset();
    });

    it('geocoder: the documented 502 and the empty answer', async () => {
      fuel.photon.mode = 'hang';
      const failed = await ctx.conforms('geocode', await fetch(url('/api/geocode?q=Sol')));
      expect(failed).toMatchObject({ status: 502, body: { error: 'Geocoding failed' }, problems: [] });
      fuel.photon.mode = 'garbage';
      const empty = await ctx.conforms('geocode', await fetch(url('/api/geocode?q=Sol')));
      expect(empty).toMatchObject({ status: 200, body: [], problems: [] });
      fuel.photon.reset();
    });

    it('rate feed: a stale copy, documented', async () => {
      await fetch(url('/api/exchange-rates'));
      fuel.ecb.mode = 'error';
      fuel.advance(24 * 60 * 60 * 1000);
      const stale = await ctx.conforms('getExchangeRates', await fetch(url('/api/exchange-rates')));
      expect(stale).toMatchObject({ status: 200, body: { stale: true }, problems: [] });
      expect(stale.headers.get('cache-control')).toBe('public, s-maxage=60');
      fuel.ecb.reset();
    });
  });
});

describe('fuel contract, live server without its database', () => {
  let down: TestFuel;
  beforeAll(async () => {
    down = await startTestFuel();
    await down.store.close();
  });
  afterAll(async () => {
    await down.close();
  });
  const ctx = useContract('fuel', async () => ({ kind: 'live', url: down.url, stop: async () => {} }));

  it.each([
    ['getStats', '/api/stats'],
    ['listStations', '/api/stations?bbox=-3.8,40.35,-3.6,40.5&fuel=B7'],
    ['listNearestStations', '/api/stations/nearest?lat=40.4&lon=-3.7&radius_km=5&fuel=B7'],
    ['getStationPriceHistory', '/api/stations/ES/1022/history?fuel=B7'],
    ['getDailyPriceStats', '/api/stats/daily?country=ES&fuel=B7'],
  ])('%s answers the documented 500', async (operationId, path) => {
    const checked = await ctx.conforms(operationId, await fetch(`${ctx.target().url}${path}`));
    expect(checked).toMatchObject({ status: 500, body: { error: 'Internal server error' }, problems: [] });
  });

  it('getExchangeRates answers the documented 502 when the feed fails and no copy exists', async () => {
    down.ecb.mode = 'error';
    const checked = await ctx.conforms(
      'getExchangeRates',
      await fetch(`${ctx.target().url}/api/exchange-rates`),
    );
    expect(checked).toMatchObject({
      status: 502,
      body: { error: 'Failed to fetch exchange rates' },
      problems: [],
    });
  });
});
