// The same requests against the app on each backend, with the demo dataset: both answer alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDataset, seedDemo } from '../demo/dataset';
import { startTestFuel, type TestFuel } from '../testing/server';
import { type OpenedTestStore, TEST_BACKENDS } from '../testing/stores';

type Collection = { features: { properties: Record<string, unknown> }[] };

describe('the app on SQLite and on PostgreSQL', () => {
  const running: { fuel: TestFuel; opened: OpenedTestStore }[] = [];
  beforeAll(async () => {
    for (const open of [TEST_BACKENDS.sqlite, TEST_BACKENDS.postgresql]) {
      const opened = await open();
      await seedDemo(opened.store, demoDataset());
      running.push({ opened, fuel: await startTestFuel({ store: opened.store }) });
    }
  });
  afterAll(async () => {
    for (const { fuel, opened } of running) {
      await fuel.close();
      await opened.dispose();
    }
  });

  const both = async (path: string, init?: RequestInit) =>
    Promise.all(
      running.map(async ({ fuel }) => {
        const res = await fetch(`${fuel.url}${path}`, init);
        expect(res.status).toBe(200);
        return res.json();
      }),
    );
  const ids = (c: Collection) => c.features.map((f) => f.properties.externalId);

  it('refuse text holding U+0000 (which PostgreSQL cannot store) alike, naming the parameter', async () => {
    for (const [route, path] of [
      ['/api/geocode?q=Madrid%00', '/query/q'],
      ['/api/geocode?q=%00', '/query/q'],
      ['/api/stations/ES/10%0022/history?fuel=B7', '/path/externalId'],
      ['/api/stations/ES/%00/history?fuel=B7', '/path/externalId'],
    ] as const) {
      const answers = await Promise.all(
        running.map(async ({ fuel }) => {
          const res = await fetch(`${fuel.url}${route}`);
          return { status: res.status, body: await res.json() };
        }),
      );
      expect(answers[0], route).toEqual({
        status: 400,
        body: {
          error: 'Invalid parameters',
          details: [{ path, message: 'must not contain the character U+0000' }],
        },
      });
      expect(answers[1], route).toEqual(answers[0]);
    }
  });

  it('select the same stations in a box, with the same prices', async () => {
    const [a, b] = (await both('/api/stations?bbox=-10,36,4,44&fuel=E5')) as [Collection, Collection];
    expect(a.features.length).toBeGreaterThan(100);
    const byId = (c: Collection) =>
      Object.fromEntries(c.features.map((f) => [f.properties.externalId, f.properties.price]));
    expect(byId(b)).toEqual(byId(a));
  });

  it('find the same nearest stations at the same distances', async () => {
    const [a, b] = (await both(
      '/api/stations/nearest?lat=38.7223&lon=-9.1393&radius_km=20&fuel=B7&limit=20',
    )) as [Collection, Collection];
    expect(ids(b)).toEqual(ids(a));
    expect(b.features.map((f) => f.properties.distanceKm)).toEqual(
      a.features.map((f) => f.properties.distanceKm),
    );
  });

  it('take a fractional radius (0.5 km is the least the document allows)', async () => {
    const [a, b] = (await both(
      '/api/stations/nearest?lat=38.7223&lon=-9.1393&radius_km=0.5&fuel=B7&limit=5',
    )) as [Collection, Collection];
    expect(ids(b)).toEqual(ids(a));
    const [wide] = (await both(
      '/api/stations/nearest?lat=38.7223&lon=-9.1393&radius_km=20.5&fuel=B7&limit=5',
    )) as [Collection];
    expect(wide.features.length).toBeGreaterThan(0);
  });

  it('find the same stations along a route, in the same order', async () => {
    const body = JSON.stringify({
      geometry: {
        type: 'LineString',
        coordinates: [
          [-3.7038, 40.4168],
          [-4.8319, 39.9635],
          [-6.3447, 38.9161],
          [-7.1633, 38.881],
          [-9.1393, 38.7223],
        ],
      },
      fuel: 'EV',
      corridorKm: 8,
    });
    const [a, b] = (await both('/api/route-stations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    })) as [Collection, Collection];
    expect(a.features.length).toBeGreaterThan(5);
    expect(ids(b)).toEqual(ids(a));
    const fractions = (c: Collection) => c.features.map((f) => f.properties.routeFraction as number);
    for (const [i, f] of fractions(b).entries()) expect(f).toBeCloseTo(fractions(a)[i] as number, 6);
  });

  it('count the same statistics', async () => {
    const [a, b] = await both('/api/stats');
    expect(b).toEqual(a);
  });
});
