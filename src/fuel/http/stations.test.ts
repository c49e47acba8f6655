import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BBOX_MESSAGE } from '../domain/coordinates';
import { greatCircleKm } from '../geo/sphere';
import type { LonLat } from '../model/geometry';
import { openSqliteStore } from '../store/sqlite';
import type { StationInput } from '../store/store';
import { readJson } from '../testing/json';
import { startTestFuel, type TestFuel } from '../testing/server';

type Feature = {
  geometry: { coordinates: LonLat };
  properties: Record<string, unknown> & { fuelType: string; currency: string };
};

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('station routes', () => {
  let fuel: TestFuel;
  beforeAll(async () => {
    fuel = await startTestFuel();
  });
  afterAll(async () => {
    await fuel.close();
  });

  describe('GET /api/stations', () => {
    it('returns the stations in the box with their latest price for the fuel', async () => {
      const res = await fetch(`${fuel.url}/api/stations?bbox=-3.80,40.35,-3.60,40.50&fuel=B7`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, s-maxage=60, stale-while-revalidate=300');
      expect(res.headers.get('x-result-truncated')).toBeNull();
      const body = (await readJson(res)) as { type: string; features: Feature[] };
      expect(body.type).toBe('FeatureCollection');
      expect(body.features.length).toBeGreaterThan(5);
      for (const f of body.features) {
        const [lon, lat] = f.geometry.coordinates;
        expect(lon).toBeGreaterThanOrEqual(-3.8);
        expect(lon).toBeLessThanOrEqual(-3.6);
        expect(lat).toBeGreaterThanOrEqual(40.35);
        expect(lat).toBeLessThanOrEqual(40.5);
        expect(f.properties).toMatchObject({ fuelType: 'B7', currency: 'EUR', country: 'ES' });
        expect(f.properties.price).toEqual(expect.any(Number));
        expect(f.properties.reportedAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
        expect(f.properties.powerKw).toBeUndefined();
      }
    });

    it('returns EV charge points without price, in EUR, with their power', async () => {
      const res = await fetch(`${fuel.url}/api/stations?bbox=-10,36,4,44&fuel=EV`);
      const { features } = (await readJson(res)) as { features: Feature[] };
      expect(features.length).toBeGreaterThan(10);
      for (const f of features) {
        expect(f.properties.currency).toBe('EUR');
        expect(f.properties.price).toBeUndefined();
        expect(f.properties.reportedAt).toBeUndefined();
      }
      expect(features.some((f) => typeof f.properties.powerKw === 'number')).toBe(true);
    });

    it.each([
      ['bbox=abc&fuel=B7'],
      ['bbox=-3.8,40.35,-3.6&fuel=B7'],
      ['bbox=-190,40,-3.6,40.5&fuel=B7'],
      ['bbox=-3.8,-91,-3.6,40.5&fuel=B7'],
      ['bbox=-3.6,40.35,-3.8,40.5&fuel=B7'],
      ['bbox=-3.8,40.5,-3.6,40.35&fuel=B7'],
      ['bbox=1e2,40,2,41&fuel=B7'],
      ['fuel=B7'],
    ])('rejects %s with the bbox message', async (query) => {
      const res = await fetch(`${fuel.url}/api/stations?${query}`);
      expect(res.status).toBe(400);
      const body = await readJson(res);
      expect(body.error).toBe('Invalid parameters');
      expect(body.details).toContainEqual({ path: '/query/bbox', message: BBOX_MESSAGE });
    });

    // The upstream's own page offers these sixteen fuels; each is a fuel of this API too (an empty map for
    // one no feed prices, never a 400).
    it.each(
      'E5 E5_PREMIUM E10 E5_98 E98_E10 B7 B7_PREMIUM B10 B_AGRICULTURAL HVO LPG CNG LNG H2 ADBLUE EV'.split(
        ' ',
      ),
    )('accepts the upstream page’s fuel %s on the map and along a route', async (code) => {
      const box = await fetch(`${fuel.url}/api/stations?bbox=-3.8,40.35,-3.6,40.5&fuel=${code}`);
      expect(box.status).toBe(200);
      const along = await fetch(`${fuel.url}/api/route-stations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          geometry: {
            type: 'LineString',
            coordinates: [
              [-3.8, 40.4],
              [-3.6, 40.45],
            ],
          },
          fuel: code,
        }),
      });
      expect(along.status).toBe(200);
    });

    it.each([['fuel=DIESEL'], ['fuel=b7'], ['']])('rejects a missing or unknown fuel (%s)', async (fuel_) => {
      const res = await fetch(`${fuel.url}/api/stations?bbox=-3.8,40.35,-3.6,40.5&${fuel_}`);
      expect(res.status).toBe(400);
      const body = await readJson(res);
      expect(body).toMatchObject({ error: 'Invalid parameters' });
      expect(body.details.map((d: { path: string }) => d.path)).toContain('/query/fuel');
    });
  });

  describe('GET /api/stations/nearest', () => {
    it('returns the nearest stations first, with great-circle distances to 3 decimals', async () => {
      const res = await fetch(
        `${fuel.url}/api/stations/nearest?lat=40.4168&lon=-3.7038&radius_km=10&fuel=B7`,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, s-maxage=60, stale-while-revalidate=300');
      const { features } = (await readJson(res)) as { features: Feature[] };
      expect(features).toHaveLength(5);
      const distances = features.map((f) => f.properties.distanceKm as number);
      expect([...distances].sort((a, b) => a - b)).toEqual(distances);
      for (const f of features) {
        const exact = greatCircleKm([-3.7038, 40.4168], f.geometry.coordinates);
        expect(f.properties.distanceKm).toBe(Math.round(exact * 1000) / 1000);
        expect(f.properties.fuelType).toBe('B7');
      }
    });

    it('honours limit and radius', async () => {
      const many = await fetch(
        `${fuel.url}/api/stations/nearest?lat=40.4168&lon=-3.7038&radius_km=100&fuel=B7&limit=50`,
      );
      const { features } = (await readJson(many)) as { features: Feature[] };
      expect(features).toHaveLength(50);
      const tight = await fetch(
        `${fuel.url}/api/stations/nearest?lat=40.4168&lon=-3.7038&radius_km=0.5&fuel=B7&limit=50`,
      );
      const near = (await readJson(tight)) as { features: Feature[] };
      for (const f of near.features) expect(f.properties.distanceKm as number).toBeLessThanOrEqual(0.5);
      const sea = await fetch(`${fuel.url}/api/stations/nearest?lat=45&lon=-20&radius_km=100&fuel=B7`);
      expect((await readJson(sea)).features).toEqual([]);
    });

    it.each([
      ['lat=91&lon=-3.7&radius_km=5&fuel=B7', '/query/lat'],
      ['lat=40.4&lon=-181&radius_km=5&fuel=B7', '/query/lon'],
      ['lat=40.4&lon=-3.7&radius_km=0.4&fuel=B7', '/query/radius_km'],
      ['lat=40.4&lon=-3.7&radius_km=101&fuel=B7', '/query/radius_km'],
      ['lat=40.4&lon=-3.7&radius_km=5&fuel=B7&limit=51', '/query/limit'],
      ['lat=40.4&lon=-3.7&radius_km=5&fuel=B7&limit=0', '/query/limit'],
      ['lat=40.4&lon=-3.7&radius_km=5&fuel=B7&limit=2.5', '/query/limit'],
      ['lat=north&lon=-3.7&radius_km=5&fuel=B7', '/query/lat'],
      ['lon=-3.7&radius_km=5&fuel=B7', '/query/lat'],
      // Texts that read as an infinite number (patches/ajv+*.patch: they had been coerced to Infinity and
      // then passed every bound, a 500 on PostgreSQL).
      ['lat=Infinity&lon=-3.7&radius_km=5&fuel=B7', '/query/lat'],
      ['lat=40.4&lon=-1e999&radius_km=5&fuel=B7', '/query/lon'],
      ['lat=40.4&lon=-3.7&radius_km=Infinity&fuel=B7', '/query/radius_km'],
      ['lat=40.4&lon=-3.7&radius_km=5&fuel=B7&limit=Infinity', '/query/limit'],
      ['lat=40.4&lon=-3.7&radius_km=5&fuel=B7&limit=1e999', '/query/limit'],
      // Nor does a text that is no decimal number: a blank had read as 0, "0x28" as 40.
      ['lat=%20&lon=-3.7&radius_km=5&fuel=B7', '/query/lat'],
      ['lat=0x28&lon=-3.7&radius_km=5&fuel=B7', '/query/lat'],
      ['lat=40.4&lon=-3.7&radius_km=5&fuel=B7&limit=0b11', '/query/limit'],
    ])('rejects %s', async (query, path) => {
      const res = await fetch(`${fuel.url}/api/stations/nearest?${query}`);
      expect(res.status).toBe(400);
      const body = await readJson(res);
      expect(body.error).toBe('Invalid parameters');
      expect(body.details.map((d: { path: string }) => d.path)).toContain(path);
    });
  });

  describe('POST /api/route-stations', () => {
    const madridLisbon: LonLat[] = [
      [-3.7038, 40.4168],
      [-4.8319, 39.9635],
      [-6.3447, 38.9161],
      [-7.1633, 38.881],
      [-7.9077, 38.5714],
      [-9.1393, 38.7223],
    ];

    it('returns the stations in the corridor ordered along the route', async () => {
      const res = await post(`${fuel.url}/api/route-stations`, {
        geometry: { type: 'LineString', coordinates: madridLisbon },
        fuel: 'B7',
        corridorKm: 5,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBeNull();
      const { features } = (await readJson(res)) as { features: Feature[] };
      expect(features.length).toBeGreaterThan(10);
      const fractions = features.map((f) => f.properties.routeFraction as number);
      expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
      expect(new Set(features.map((f) => f.properties.country))).toEqual(new Set(['ES', 'PT']));
      expect(features.every((f) => typeof f.properties.price === 'number')).toBe(true);
      const wider = await post(`${fuel.url}/api/route-stations`, {
        geometry: { type: 'LineString', coordinates: madridLisbon },
        fuel: 'B7',
      });
      expect(((await readJson(wider)) as { features: Feature[] }).features).toHaveLength(features.length);
    });

    it.each([
      [
        'one point',
        { geometry: { type: 'LineString', coordinates: [[-3.7, 40.4]] }, fuel: 'B7' },
        '/body/geometry/coordinates',
      ],
      [
        'a polygon',
        {
          geometry: {
            type: 'Polygon',
            coordinates: [
              [-3.7, 40.4],
              [-3.6, 40.5],
            ],
          },
          fuel: 'B7',
        },
        '/body/geometry/type',
      ],
      [
        'a latitude of 95',
        {
          geometry: {
            type: 'LineString',
            coordinates: [
              [-3.7, 40.4],
              [-3.6, 95],
            ],
          },
          fuel: 'B7',
        },
        '/body/geometry/coordinates/1/1',
      ],
      [
        'a corridor of 60 km',
        {
          geometry: {
            type: 'LineString',
            coordinates: [
              [-3.7, 40.4],
              [-3.6, 40.5],
            ],
          },
          fuel: 'B7',
          corridorKm: 60,
        },
        '/body/corridorKm',
      ],
      [
        'a corridor of 0.4 km',
        {
          geometry: {
            type: 'LineString',
            coordinates: [
              [-3.7, 40.4],
              [-3.6, 40.5],
            ],
          },
          fuel: 'B7',
          corridorKm: 0.4,
        },
        '/body/corridorKm',
      ],
      [
        'no fuel',
        {
          geometry: {
            type: 'LineString',
            coordinates: [
              [-3.7, 40.4],
              [-3.6, 40.5],
            ],
          },
        },
        '/body/fuel',
      ],
      [
        'a number sent as a string',
        {
          geometry: {
            type: 'LineString',
            coordinates: [
              [-3.7, '40.4'],
              [-3.6, 40.5],
            ],
          },
          fuel: 'B7',
        },
        '/body/geometry/coordinates/0/1',
      ],
      [
        'a word as coordinate',
        {
          geometry: {
            type: 'LineString',
            coordinates: [
              [-3.7, 'north'],
              [-3.6, 40.5],
            ],
          },
          fuel: 'B7',
        },
        '/body/geometry/coordinates/0/1',
      ],
    ])('rejects %s', async (_name, body, path) => {
      const res = await post(`${fuel.url}/api/route-stations`, body, {
        'X-Forwarded-For': `198.51.100.${path.length}`,
      });
      expect(res.status).toBe(400);
      const answer = await readJson(res);
      expect(answer.error).toBe('Invalid parameters');
      expect(answer.details.map((d: { path: string }) => d.path)).toContain(path);
    });

    it('rejects more than 2,000 points', async () => {
      const coordinates = Array.from({ length: 2001 }, (_, i) => [-3.7 + i * 0.001, 40.4]);
      const res = await post(`${fuel.url}/api/route-stations`, {
        geometry: { type: 'LineString', coordinates },
        fuel: 'B7',
      });
      expect(res.status).toBe(400);
    });

    it('answers Invalid JSON to a body that is not JSON', async () => {
      const res = await post(`${fuel.url}/api/route-stations`, '{"geometry": ', {
        'X-Forwarded-For': '192.0.2.77',
      });
      expect(res.status).toBe(400);
      expect(await readJson(res)).toEqual({ error: 'Invalid JSON' });
    });
  });
});

describe('oversized answers', () => {
  let fuel: TestFuel;
  const COUNT = 20_001;
  beforeAll(async () => {
    // 20,001 stations 10 m apart along the equator: more than either cap, all within 0.5 km of the line.
    const store = openSqliteStore(':memory:');
    const stations: StationInput[] = Array.from({ length: COUNT }, (_, i) => ({
      externalId: `s${i}`,
      country: 'EC',
      type: 'fuel',
      name: `S${i}`,
      brand: null,
      address: '',
      city: '',
      lon: i * 0.00009,
      lat: 0,
      source: 'test',
    }));
    await store.upsertStations(stations);
    await store.replacePrices(
      'test',
      'EC',
      stations.map((s) => ({
        externalId: s.externalId,
        country: 'EC',
        fuel: 'B7',
        price: 0.5,
        currency: 'USD',
      })),
    );
    fuel = await startTestFuel({ store, configure: (c) => ({ ...c, validateResponses: false }) });
  });
  afterAll(async () => {
    await fuel.close();
  });

  it('cuts a box at 20,000 stations spread over it, marks the cut and logs it', async () => {
    const res = await fetch(`${fuel.url}/api/stations?bbox=-1,-1,3,1&fuel=B7`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-result-truncated')).toBe('true');
    const { features } = (await readJson(res)) as { features: Feature[] };
    expect(features).toHaveLength(20_000);
    const lons = features.map((f) => f.geometry.coordinates[0]);
    // The one left out is not simply the last one along the line.
    expect(Math.max(...lons)).toBeGreaterThan(1.7999);
    expect(fuel.logs.filter((l) => l.msg === '[stations] result truncated at 20000')).toHaveLength(1);
    const again = (await readJson(await fetch(`${fuel.url}/api/stations?bbox=-1,-1,3,1&fuel=B7`))) as {
      features: Feature[];
    };
    expect(again.features.map((f) => f.properties.id)).toEqual(features.map((f) => f.properties.id));
  });

  it('keeps the first 5,000 stations along a route and logs the cut', async () => {
    const res = await post(`${fuel.url}/api/route-stations`, {
      geometry: {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1.8, 0],
        ],
      },
      fuel: 'B7',
      corridorKm: 0.5,
    });
    expect(res.status).toBe(200);
    const { features } = (await readJson(res)) as { features: Feature[] };
    expect(features).toHaveLength(5_000);
    expect(features.map((f) => f.properties.externalId).slice(0, 3)).toEqual(['s0', 's1', 's2']);
    expect(features.at(-1)?.properties.externalId).toBe('s4999');
    expect(fuel.logs.some((l) => l.msg === '[route-stations] result hit LIMIT 5000 (may be truncated)')).toBe(
      true,
    );
  });
});
