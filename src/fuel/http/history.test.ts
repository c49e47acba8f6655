import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../store/sqlite';
import type { FuelStore, PriceInput } from '../store/store';
import { readJson } from '../testing/json';
import { startTestFuel, type TestFuel } from '../testing/server';

const DAY = 24 * 60 * 60 * 1000;

describe('price history routes', () => {
  let fuel: TestFuel;
  let store: FuelStore;
  const now = Date.now();
  const ago = (days: number) => new Date(now - days * DAY);
  const run = (prices: [string, number][], when: Date) =>
    store.replacePrices(
      'miteco',
      'ES',
      prices.map(
        ([externalId, price]): PriceInput => ({
          externalId,
          country: 'ES',
          fuel: 'B7',
          price,
          currency: 'EUR',
          reportedAt: when,
        }),
      ),
    );

  beforeAll(async () => {
    store = openSqliteStore(':memory:');
    const at = (externalId: string, lon: number) => ({
      externalId,
      country: 'ES',
      type: 'fuel' as const,
      name: externalId,
      brand: null,
      address: '',
      city: 'Madrid',
      lon,
      lat: 40.4,
      source: 'miteco',
    });
    await store.upsertStations([at('a', -3.7), at('b', -3.6), at('c', -3.5)]);
    await run(
      [
        ['a', 1.5],
        ['b', 1.4],
      ],
      ago(40),
    );
    await run(
      [
        ['a', 1.5],
        ['b', 1.45],
      ],
      ago(20),
    );
    await run(
      [
        ['a', 1.55],
        ['b', 1.45],
        ['c', 1.3],
      ],
      ago(5),
    );
    fuel = await startTestFuel({ store, seed: false });
  });
  afterAll(() => fuel.close());

  it('gives a station’s changes over the window, the price in force when it opened first', async () => {
    const res = await fetch(`${fuel.url}/api/stations/ES/b/history?fuel=B7&days=30`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, s-maxage=300, stale-while-revalidate=600');
    const body = await readJson(res);
    expect(body).toMatchObject({ country: 'ES', externalId: 'b', fuelType: 'B7', days: 30 });
    expect(body.changes.map((c: { price: number; changedAt: string }) => [c.price, c.changedAt])).toEqual([
      [1.4, ago(40).toISOString()],
      [1.45, ago(20).toISOString()],
    ]);
    const short = await readJson(await fetch(`${fuel.url}/api/stations/ES/a/history?fuel=B7&days=10`));
    expect(short.changes.map((c: { price: number }) => c.price)).toEqual([1.5, 1.55]);
    const other = await readJson(await fetch(`${fuel.url}/api/stations/ES/a/history?fuel=E5`));
    expect(other.changes).toEqual([]);
  });

  it('answers 404 for an unknown station and 400 for a bad fuel or window', async () => {
    const missing = await fetch(`${fuel.url}/api/stations/ES/zz/history?fuel=B7`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'Station not found' });
    for (const query of ['fuel=DIESEL', 'fuel=B7&days=0', 'fuel=B7&days=400', 'fuel=B7&days=Infinity', '']) {
      const bad = await fetch(`${fuel.url}/api/stations/ES/a/history?${query}`);
      expect(bad.status, query).toBe(400);
    }
    const infinite = await fetch(`${fuel.url}/api/stats/daily?country=ES&fuel=B7&days=Infinity`);
    expect(infinite.status).toBe(400);
    expect((await readJson(infinite)).details).toEqual([{ path: '/query/days', message: 'must be integer' }]);
    expect((await fetch(`${fuel.url}/api/stations/es/a/history?fuel=B7`)).status).toBe(400);
  });

  it('gives daily min, average and max of the prices in force at the end of each day', async () => {
    const res = await fetch(`${fuel.url}/api/stats/daily?country=ES&fuel=B7&days=30`);
    expect(res.status).toBe(200);
    const body = await readJson(res);
    expect(body.currency).toBe('EUR');
    const day = (daysAgo: number) =>
      body.days.find((d: { date: string }) => d.date === ago(daysAgo).toISOString().slice(0, 10));
    expect(day(25)).toEqual({ date: expect.any(String), min: 1.4, avg: 1.45, max: 1.5, stations: 2 });
    expect(day(10)).toMatchObject({ min: 1.45, avg: 1.475, max: 1.5, stations: 2 });
    expect(day(1)).toMatchObject({ min: 1.3, avg: 1.4333, max: 1.55, stations: 3 });
    expect(body.days.length).toBeGreaterThanOrEqual(30);
    const empty = await readJson(await fetch(`${fuel.url}/api/stats/daily?country=PT&fuel=B7`));
    expect(empty).toMatchObject({ days: [], currency: null });
  });
});
