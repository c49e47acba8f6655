import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resettingPort } from '../../common/testing/ports';
import { readJson } from '../testing/json';
import { startTestFuel, type TestFuel } from '../testing/server';

type Route = {
  geometry: { type: string; coordinates: [number, number][] };
  distance: number;
  duration: number;
  bbox: number[];
  durations: number[];
};

const MADRID = [-3.7038, 40.4168];
const LISBON = [-9.1393, 38.7223];

describe('POST /api/route', () => {
  let fuel: TestFuel;
  let ip = 0;
  // A fresh client address per request keeps these tests clear of the rate limit they do not test.
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${fuel.url}/api/route`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `203.0.113.${++ip}`, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  beforeAll(async () => {
    fuel = await startTestFuel();
  });
  afterEach(() => {
    fuel.osrm.reset();
  });
  afterAll(async () => {
    await fuel.close();
  });

  it('asks the engine for 2 alternatives and answers km, seconds, bbox and per-point durations', async () => {
    const res = await post({ origin: MADRID, destination: LISBON });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBeNull();
    const { routes } = (await readJson(res)) as { routes: Route[] };
    expect(routes).toHaveLength(3);
    const request = fuel.osrm.requests[0] as URL;
    expect(request.pathname).toBe('/route/v1/driving/-3.7038,40.4168;-9.1393,38.7223');
    expect(Object.fromEntries(request.searchParams)).toMatchObject({
      alternatives: '2',
      geometries: 'geojson',
      annotations: 'duration',
      overview: 'full',
    });
    const [main] = routes as [Route];
    expect(main.distance).toBeGreaterThan(500);
    expect(main.distance).toBeLessThan(1000);
    expect(main.geometry.coordinates[0]).toEqual(MADRID);
    expect(main.geometry.coordinates.at(-1)).toEqual(LISBON);
    expect(main.durations).toHaveLength(main.geometry.coordinates.length);
    expect(main.durations[0]).toBe(0);
    expect(main.durations.at(-1)).toBeCloseTo(main.duration, 0);
    expect(main.bbox).toEqual(
      [LISBON[0], LISBON[1], MADRID[0], MADRID[1]].map((v) => expect.closeTo(v as number, 3)),
    );
    expect(routes[1]?.duration).toBeGreaterThan(main.duration);
  });

  it('asks for one route through the waypoints', async () => {
    const res = await post({ origin: MADRID, destination: LISBON, waypoints: [[-6.3447, 38.9161]] });
    expect(res.status).toBe(200);
    const { routes } = (await readJson(res)) as { routes: Route[] };
    expect(routes).toHaveLength(1);
    const request = fuel.osrm.requests[0] as URL;
    expect(request.pathname).toBe('/route/v1/driving/-3.7038,40.4168;-6.3447,38.9161;-9.1393,38.7223');
    expect(request.searchParams.get('alternatives')).toBe('false');
    const legs = 2;
    expect(routes[0]?.geometry.coordinates).toHaveLength(legs * 40 - 1);
  });

  it('thins a long geometry to 2,000 points, keeping both ends, bbox from the full line', async () => {
    fuel.osrm.pointsPerLeg = 5_000;
    // A detour north of the straight line whose highest point falls between kept points.
    const res = await post({ origin: MADRID, destination: LISBON });
    const { routes } = (await readJson(res)) as { routes: Route[] };
    for (const route of routes) {
      expect(route.geometry.coordinates).toHaveLength(2_000);
      expect(route.durations).toHaveLength(2_000);
      expect(route.geometry.coordinates[0]).toEqual(MADRID);
      expect(route.geometry.coordinates.at(-1)).toEqual(LISBON);
      const increasing = route.durations.every((d, i) => i === 0 || d >= (route.durations[i - 1] ?? 0));
      expect(increasing).toBe(true);
      expect(route.durations.at(-1)).toBeCloseTo(route.duration, 0);
    }
    const alternative = routes[1] as Route;
    const keptMaxLat = Math.max(...alternative.geometry.coordinates.map((c) => c[1]));
    expect(alternative.bbox[3]).toBeGreaterThanOrEqual(keptMaxLat);
  });

  it.each([
    ['the engine finds no route', 'no-route', 'Routing service unavailable'],
    ['the engine answers an error status', 'error', 'Routing service unavailable'],
    ['the engine answers something that is not JSON', 'garbage', 'Route calculation failed'],
    ['the engine does not answer in time', 'hang', 'Route calculation failed'],
  ] as const)('answers 502 when %s', async (_name, mode, message) => {
    fuel.osrm.mode = mode;
    const res = await post({ origin: MADRID, destination: LISBON });
    expect(res.status).toBe(502);
    expect(await readJson(res)).toEqual({ error: message });
  });

  it('answers 502 Route calculation failed when with waypoints the engine times out', async () => {
    fuel.osrm.mode = 'hang';
    const res = await post({ origin: MADRID, destination: LISBON, waypoints: [[-6.3, 38.9]] });
    expect(res.status).toBe(502);
    expect(await readJson(res)).toEqual({ error: 'Route calculation failed' });
  });

  it.each([
    ['origin latitude 91', { origin: [-3.7, 91], destination: LISBON }, '/body/origin/1'],
    ['destination longitude 181', { origin: MADRID, destination: [181, 40] }, '/body/destination/0'],
    [
      'a waypoint latitude -100',
      { origin: MADRID, destination: LISBON, waypoints: [[-5, -100]] },
      '/body/waypoints/0/1',
    ],
    [
      '6 waypoints',
      { origin: MADRID, destination: LISBON, waypoints: Array(6).fill([-5, 40]) },
      '/body/waypoints',
    ],
    ['a three-number origin', { origin: [-3.7, 40.4, 10], destination: LISBON }, '/body/origin'],
    ['no destination', { origin: MADRID }, '/body/destination'],
  ])('rejects %s', async (_name, body, path) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    const answer = await readJson(res);
    expect(answer.error).toBe('Invalid parameters');
    expect(answer.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(fuel.osrm.requests).toHaveLength(0);
  });

  it('answers Invalid JSON to a broken body', async () => {
    const res = await post('{"origin": [1,');
    expect(res.status).toBe(400);
    expect(await readJson(res)).toEqual({ error: 'Invalid JSON' });
  });
});

describe('POST /api/route without an engine or with one whose connections fail', () => {
  it('answers Routing service unavailable when no address is configured', async () => {
    const fuel = await startTestFuel({
      configure: (c) => ({ ...c, routing: { ...c.routing, url: undefined } }),
    });
    try {
      const res = await fetch(`${fuel.url}/api/route`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ origin: MADRID, destination: LISBON }),
      });
      expect(res.status).toBe(502);
      expect(await readJson(res)).toEqual({ error: 'Routing service unavailable' });
    } finally {
      await fuel.close();
    }
  });

  it('answers Route calculation failed when the connection fails', async () => {
    const upstream = await resettingPort();
    const fuel = await startTestFuel({
      configure: (c) => ({ ...c, routing: { ...c.routing, url: upstream.url } }),
    });
    try {
      const res = await fetch(`${fuel.url}/api/route`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ origin: MADRID, destination: LISBON }),
      });
      expect(res.status).toBe(502);
      expect(await readJson(res)).toEqual({ error: 'Route calculation failed' });
    } finally {
      await fuel.close();
      await upstream.close();
    }
  });
});
