import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestFuel, type TestFuel } from '../testing/server';

const LINE = {
  geometry: {
    type: 'LineString',
    coordinates: [
      [-3.7, 40.4],
      [-3.6, 40.5],
    ],
  },
  fuel: 'B7',
};
const ROUTE = { origin: [-3.7038, 40.4168], destination: [-3.6, 40.5] };
const DETOUR = {
  stations: [{ id: 'a', lon: -3.65, lat: 40.45 }],
  origin: [-3.7, 40.4],
  destination: [-3.6, 40.5],
  routeDuration: 600,
};

describe('rate limits', () => {
  let fuel: TestFuel;
  beforeAll(async () => {
    fuel = await startTestFuel();
  });
  afterAll(async () => {
    await fuel.close();
  });

  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${fuel.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }).then(async (res) => ({
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: await res.text(),
    }));

  it.each([
    ['/api/route', ROUTE, 30],
    ['/api/route-stations', LINE, 30],
    ['/api/route-detour', DETOUR, 10],
  ])(
    '%s allows %#… requests per minute per client IP, then 429 with Retry-After',
    async (path, body, limit) => {
      const me = { 'X-Forwarded-For': `192.0.2.${limit}${path.length}, 10.0.0.1` };
      for (let i = 0; i < limit; i++) expect((await post(path, body, me)).status).toBe(200);
      const refused = await post(path, body, me);
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body)).toEqual({ error: 'Too many requests' });
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
      // Bad input is counted and refused the same way: the limit comes first.
      expect((await post(path, '{oops', me)).status).toBe(429);
      // Another client, the same client on another route, and a GET route are unaffected.
      expect((await post(path, body, { 'X-Forwarded-For': '192.0.2.250' })).status).toBe(200);
      expect((await fetch(`${fuel.url}/api/config`, { headers: me })).status).toBe(200);
    },
  );

  it('counts each route on its own and opens a new window after a minute', async () => {
    const me = { 'X-Real-IP': '203.0.113.99' };
    for (let i = 0; i < 10; i++) await post('/api/route-detour', DETOUR, me);
    expect((await post('/api/route-detour', DETOUR, me)).status).toBe(429);
    expect((await post('/api/route', ROUTE, me)).status).toBe(200);
    fuel.advance(60_000);
    expect((await post('/api/route-detour', DETOUR, me)).status).toBe(200);
  });

  it('puts clients without an address header in one shared bucket', async () => {
    fuel.advance(60_000);
    for (let i = 0; i < 10; i++) expect((await post('/api/route-detour', DETOUR, {})).status).toBe(200);
    expect((await post('/api/route-detour', DETOUR, { 'X-Forwarded-For': '' })).status).toBe(429);
    expect((await post('/api/route-detour', DETOUR, { 'X-Real-IP': '198.51.100.1' })).status).toBe(200);
  });
});
