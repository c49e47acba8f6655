import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resettingPort } from '../../common/testing/ports';
import type { LonLat } from '../model/geometry';
import { readJson } from '../testing/json';
import { startTestFuel, type TestFuel } from '../testing/server';

const ORIGIN: LonLat = [-3.7038, 40.4168];
const DESTINATION: LonLat = [-9.1393, 38.7223];
const ROUTE_SECONDS = 21_000;

interface Line {
  id: string;
  detourMin: number;
}

function stations(n: number) {
  return Array.from({ length: n }, (_, i) => ({ id: `st-${i}`, lon: -4 - i * 0.1, lat: 40 - i * 0.02 }));
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!condition()) throw new Error(`gave up waiting for ${what}`);
}

const parseLines = (text: string): Line[] =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Line);

describe('POST /api/route-detour', () => {
  let fuel: TestFuel;
  let ip = 0;
  const send = (body: unknown, init: RequestInit = {}) =>
    fetch(`${fuel.url}/api/route-detour`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `198.51.100.${++ip}` },
      body: JSON.stringify(body),
      ...init,
    });
  const trip = (list: unknown[]) => ({
    stations: list,
    origin: ORIGIN,
    destination: DESTINATION,
    routeDuration: ROUTE_SECONDS,
  });

  beforeAll(async () => {
    fuel = await startTestFuel({ env: { ROUTING_MAX_INFLIGHT: '50' } });
  });
  afterEach(() => {
    fuel.osrm.reset();
  });
  afterAll(async () => {
    await fuel.close();
  });

  it('streams one NDJSON line per station, route-relative with anchors, whole-trip without', async () => {
    const relative = {
      id: 'rel',
      lon: -6.3389,
      lat: 38.9204,
      before: [-6.3102, 38.9387],
      after: [-6.3721, 38.9068],
      onRouteSec: 215,
    };
    const whole = { id: 'whole', lon: -7.1702, lat: 38.8867 };
    const partial = { id: 'partial', lon: -5, lat: 39, before: [-4.9, 39.1] };
    fuel.osrm.durationOf = (points) => {
      const [first] = points;
      if (first?.[0] === -6.3102) return 215 + 90;
      if (first?.[0] === ORIGIN[0]) return ROUTE_SECONDS + 300;
      return null;
    };
    const res = await send(trip([relative, whole, partial]));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const text = await res.text();
    expect(text.endsWith('\n')).toBe(true);
    const lines = parseLines(text);
    expect(Object.fromEntries(lines.map((l) => [l.id, l.detourMin]))).toEqual({
      rel: 1.5,
      whole: 5,
      partial: 5,
    });
    const paths = fuel.osrm.requests.map((u) => u.pathname).sort();
    expect(paths).toContain('/route/v1/driving/-6.3102,38.9387;-6.3389,38.9204;-6.3721,38.9068');
    expect(paths).toContain('/route/v1/driving/-3.7038,40.4168;-7.1702,38.8867;-9.1393,38.7223');
    expect(fuel.osrm.requests.every((u) => u.searchParams.get('overview') === 'false')).toBe(true);
  });

  it('applies the -1 and 0 rules and rounds to one decimal', async () => {
    const extra: Record<string, number | null> = { a: 125, b: -30, c: -60, d: -61, e: null, f: 2.9 };
    fuel.osrm.durationOf = (points) => {
      const station = points[1] as LonLat;
      const id = String.fromCharCode(97 + Math.round((-4 - station[0]) / 0.1));
      const seconds = extra[id];
      return seconds === null || seconds === undefined ? null : ROUTE_SECONDS + seconds;
    };
    const res = await send(trip(stations(6).map((s, i) => ({ ...s, id: String.fromCharCode(97 + i) }))));
    expect(res.status).toBe(200);
    const lines = parseLines(await res.text());
    expect(Object.fromEntries(lines.map((l) => [l.id, l.detourMin]))).toEqual({
      a: 2.1,
      b: 0,
      c: 0,
      d: -1,
      e: -1,
      f: 0,
    });
  });

  it.each(['error', 'garbage', 'hang'] as const)(
    'answers 200 with -1 lines when the engine fails (%s)',
    async (mode) => {
      fuel.osrm.mode = mode;
      const res = await send(trip(stations(3)));
      expect(res.status).toBe(200);
      const lines = parseLines(await res.text());
      expect(lines.map((l) => l.detourMin)).toEqual([-1, -1, -1]);
    },
  );

  it('measures eight stations at a time', async () => {
    fuel.osrm.hold();
    const res = await send(trip(stations(20)));
    await waitFor(() => fuel.osrm.requests.length >= 8, 'eight engine calls');
    // Give a ninth call every chance to show up before looking.
    await new Promise((r) => setTimeout(r, 100));
    expect(fuel.osrm.requests).toHaveLength(8);
    fuel.osrm.release();
    expect(parseLines(await res.text())).toHaveLength(20);
    expect(fuel.osrm.maxInflight).toBe(8);
  });

  it('drops the stations not yet started when the client goes away', async () => {
    fuel.osrm.hold();
    const seen = fuel.logs.length;
    const finished = () => fuel.logs.slice(seen).find((l) => l.msg === 'detour stream finished');
    const controller = new AbortController();
    const res = await send(trip(stations(40)), { signal: controller.signal });
    expect(res.status).toBe(200);
    await waitFor(() => fuel.osrm.requests.length === 8, 'eight engine calls');
    controller.abort();
    await waitFor(() => finished() !== undefined, 'the stream to finish');
    fuel.osrm.release();
    expect(finished()).toMatchObject({ requested: 40, routed: 40, started: 8, finished: 0, dropped: 32 });
    expect(fuel.osrm.requests).toHaveLength(8);
  });

  it.each([
    ['no stations', { ...trip([]) }, '/body/stations'],
    ['151 stations', { ...trip(stations(151)) }, '/body/stations'],
    ['a negative route duration', { ...trip(stations(1)), routeDuration: -1 }, '/body/routeDuration'],
    ['a station latitude of 91', { ...trip([{ id: 'x', lon: 1, lat: 91 }]) }, '/body/stations/0/lat'],
    [
      'an anchor latitude of 95',
      { ...trip([{ id: 'x', lon: 1, lat: 40, before: [1, 95] }]) },
      '/body/stations/0/before/1',
    ],
    ['an origin latitude of -91', { ...trip(stations(1)), origin: [1, -91] }, '/body/origin/1'],
    ['a station without id', { ...trip([{ lon: 1, lat: 40 }]) }, '/body/stations/0/id'],
    [
      'a negative onRouteSec',
      { ...trip([{ id: 'x', lon: 1, lat: 40, onRouteSec: -5 }]) },
      '/body/stations/0/onRouteSec',
    ],
  ])('rejects %s before the stream starts', async (_name, body, path) => {
    const res = await send(body);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const answer = await readJson(res);
    expect(answer.error).toBe('Invalid parameters');
    expect(answer.details.map((d: { path: string }) => d.path)).toContain(path);
  });
});

describe('POST /api/route-detour limits', () => {
  it('keeps an even spread of APP_MAX_DETOUR_STATIONS stations, in order', async () => {
    const fuel = await startTestFuel({ env: { APP_MAX_DETOUR_STATIONS: '4' } });
    try {
      const res = await fetch(`${fuel.url}/api/route-detour`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          stations: stations(10),
          origin: ORIGIN,
          destination: DESTINATION,
          routeDuration: 100,
        }),
      });
      const lines = parseLines(await res.text());
      expect(lines.map((l) => l.id).sort()).toEqual(['st-0', 'st-2', 'st-5', 'st-7']);
      expect(fuel.osrm.requests).toHaveLength(4);
    } finally {
      await fuel.close();
    }
  });

  it('never has more than ROUTING_MAX_INFLIGHT engine calls in flight across requests', async () => {
    const fuel = await startTestFuel({ env: { ROUTING_MAX_INFLIGHT: '3' } });
    fuel.osrm.delayMs = 20;
    try {
      const one = () =>
        fetch(`${fuel.url}/api/route-detour`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            stations: stations(8),
            origin: ORIGIN,
            destination: DESTINATION,
            routeDuration: 100,
          }),
        }).then((r) => r.text());
      fuel.osrm.hold();
      const both = Promise.all([one(), one()]);
      await waitFor(() => fuel.osrm.requests.length >= 3, 'three engine calls');
      await new Promise((r) => setTimeout(r, 100));
      expect(fuel.osrm.requests).toHaveLength(3);
      fuel.osrm.release();
      const bodies = await both;
      expect(bodies.map((b) => parseLines(b).length)).toEqual([8, 8]);
      expect(fuel.osrm.maxInflight).toBe(3);
    } finally {
      await fuel.close();
    }
  });

  it('answers -1 for every station without a routing address, and when the connection fails', async () => {
    const upstream = await resettingPort();
    for (const url of [undefined, upstream.url]) {
      const fuel = await startTestFuel({ configure: (c) => ({ ...c, routing: { ...c.routing, url } }) });
      try {
        const res = await fetch(`${fuel.url}/api/route-detour`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            stations: stations(2),
            origin: ORIGIN,
            destination: DESTINATION,
            routeDuration: 100,
          }),
        });
        expect(res.status).toBe(200);
        expect(parseLines(await res.text()).map((l) => l.detourMin)).toEqual([-1, -1]);
      } finally {
        await fuel.close();
      }
    }
    await upstream.close();
  });
});
