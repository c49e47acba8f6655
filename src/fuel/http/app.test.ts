import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundledDocument } from '../../common/documents';
import { documentedOperations } from '../../common/http/operations';
import { readJson } from '../testing/json';
import { startTestFuel, type TestFuel } from '../testing/server';
import { fuelHandlers } from './app';

describe('fuel app', () => {
  let fuel: TestFuel;
  beforeAll(async () => {
    fuel = await startTestFuel();
  });
  afterAll(async () => {
    await fuel.close();
  });

  it('has exactly one handler per documented operation', () => {
    const documented = documentedOperations(loadBundledDocument('fuel')).map((op) => op.operationId);
    // The map is made without touching its wiring, which only the handlers read.
    expect(Object.keys(fuelHandlers({} as never)).sort()).toEqual(documented.sort());
  });

  it('serves the map configuration with its cache header', async () => {
    const res = await fetch(`${fuel.url}/api/config`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, s-maxage=3600, stale-while-revalidate=7200');
    expect(await readJson(res)).toEqual({
      defaultCountry: 'ES',
      defaultFuel: 'B7',
      center: [-3.7038, 40.4168],
      zoom: 6,
      enabledCountries: [
        {
          code: 'ES',
          name: 'España',
          center: [-3.7038, 40.4168],
          zoom: 6,
          defaultFuel: 'B7',
          fuels: [
            'B7',
            'B7_PREMIUM',
            'B_AGRICULTURAL',
            'B100',
            'HVO',
            'E5',
            'E5_PREMIUM',
            'E5_98',
            'E5_RENEWABLE',
            'E10',
            'E98_E10',
            'E25',
            'E85',
            'E100',
            'LPG',
            'CNG',
            'BIO_CNG',
            'LNG',
            'BIO_LNG',
            'H2',
            'NH3',
            'M100',
            'ADBLUE',
            'EV',
          ],
        },
        {
          code: 'PT',
          name: 'Portugal',
          center: [-8.2245, 39.3999],
          zoom: 7,
          defaultFuel: 'B7',
          fuels: ['B7', 'B7_PREMIUM', 'E5', 'E5_PREMIUM', 'E5_98', 'LPG', 'CNG', 'EV'],
        },
      ],
    });
  });

  it('serves statistics per country, most stations first, with the configuration summary', async () => {
    const res = await fetch(`${fuel.url}/api/stats`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, s-maxage=300, stale-while-revalidate=600');
    const body = await readJson(res);
    expect(body.config).toEqual({
      defaultCountry: 'ES',
      enabledCountries: ['ES', 'PT', 'US'],
      defaultFuel: 'B7',
      center: [-3.7038, 40.4168],
      zoom: 6,
    });
    expect(body.countries.map((c: { code: string }) => c.code)).toEqual(['ES', 'PT']);
    expect(body.countries[0]).toMatchObject({ name: 'España', lastUpdate: expect.stringMatching(/Z$/) });
    const sum = body.countries.reduce((n: number, c: { stations: number }) => n + c.stations, 0);
    expect(body.totals.stations).toBe(sum);
    expect(body.totals.prices).toBeGreaterThan(body.totals.stations / 2);
  });

  it('sends no CORS headers, even when asked from another origin', async () => {
    const res = await fetch(`${fuel.url}/api/config`, { headers: { Origin: 'https://elsewhere.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${fuel.url}/api/route`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('ignores query parameters a route does not know', async () => {
    const res = await fetch(`${fuel.url}/api/config?utm_source=newsletter&v=2`);
    expect(res.status).toBe(200);
    const stations = await fetch(`${fuel.url}/api/stations?bbox=-3.8,40.35,-3.6,40.5&fuel=B7&zoom=12`);
    expect(stations.status).toBe(200);
  });

  it('answers an unknown path with a JSON 404, and a method a known path does not take with 405 and Allow', async () => {
    const missing = await fetch(`${fuel.url}/api/nothing-here`);
    expect(missing.status).toBe(404);
    expect(await readJson(missing)).toEqual({ error: 'Not found' });
    const wrong = await fetch(`${fuel.url}/api/route`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(await readJson(wrong)).toEqual({ error: 'Method not allowed' });
    for (const method of ['DELETE', 'PUT', 'PATCH']) {
      const res = await fetch(`${fuel.url}/api/config`, { method });
      expect([method, res.status, res.headers.get('allow')]).toEqual([method, 405, 'GET, HEAD']);
    }
  });
});

describe('fuel app with its database down', () => {
  let fuel: TestFuel;
  beforeAll(async () => {
    fuel = await startTestFuel();
    await fuel.store.close();
  });
  afterAll(async () => {
    await fuel.close();
  });

  it('still serves the configuration (the liveness probe)', async () => {
    const res = await fetch(`${fuel.url}/api/config`);
    expect(res.status).toBe(200);
  });

  it('answers 500 on stats and logs the failure', async () => {
    const res = await fetch(`${fuel.url}/api/stats`);
    expect(res.status).toBe(500);
    expect(await readJson(res)).toEqual({ error: 'Internal server error' });
    expect(res.headers.get('cache-control')).toBeNull();
    expect(fuel.logs.some((l) => l.msg === 'Failed to query stats:' && l.level === 50)).toBe(true);
  });

  it('answers 500 without detail on the station queries', async () => {
    const requests = [
      fetch(`${fuel.url}/api/stations?bbox=-3.8,40.35,-3.6,40.5&fuel=B7`),
      fetch(`${fuel.url}/api/stations/nearest?lat=40.4&lon=-3.7&radius_km=5&fuel=B7`),
      fetch(`${fuel.url}/api/route-stations`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          geometry: {
            type: 'LineString',
            coordinates: [
              [-3.7, 40.4],
              [-3.6, 40.5],
            ],
          },
          fuel: 'B7',
        }),
      }),
    ];
    for (const res of await Promise.all(requests)) {
      expect(res.status).toBe(500);
      expect(await readJson(res)).toEqual({ error: 'Internal server error' });
    }
  });
});
