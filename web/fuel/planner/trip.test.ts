/**
 * The planner's chain (trip.ts) against a live fuel server on a free port, its routing engine and place
 * search the fakes that speak their wire formats, without a browser: place → route → stations along it →
 * detours as a stream, a stop half-way, and the words each failing step shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFuelClient } from '../../../generated/fuel/client';
import { startTestFuel, type TestFuel } from '../../../src/fuel/testing/server';
import type { FuelApi } from '../api';
import {
  bestWithin,
  findRoutes,
  geocode,
  MAX_DETOUR_STATIONS,
  measureDetours,
  stationsAlong,
  TripError,
} from './trip';

let fuel: TestFuel;
let api: FuelApi;

beforeAll(async () => {
  fuel = await startTestFuel();
  api = createFuelClient({ baseUrl: fuel.url });
});

afterAll(async () => fuel?.close());

const MADRID_TOLEDO = { origin: '40.42, -3.70', destination: '39.86, -4.02', waypoints: [] };

describe("the route planner's trip", () => {
  it('goes from typed ends to the diesel stations along the route and the detour of each, as streamed', async () => {
    const { routes, ends } = await findRoutes(api, MADRID_TOLEDO, null);
    expect(routes.length).toBeGreaterThan(0);
    expect(ends).toEqual({ origin: [-3.7, 40.42], destination: [-4.02, 39.86] });
    const route = routes[0];
    if (!route) throw new Error('no route');
    const planned = await stationsAlong(api, route, 'B7', 5);
    expect(planned.length).toBeGreaterThan(0);
    for (const p of planned) {
      expect(p.km).toBeGreaterThanOrEqual(0);
      expect(p.km).toBeLessThanOrEqual(route.distance + 1e-6);
      expect(p.station.properties.price).toBeGreaterThan(0);
    }
    const detours = new Map<string, number>();
    await measureDetours(api, route, planned, ends, new AbortController().signal, (line) =>
      detours.set(line.id, line.detourMin),
    );
    expect(detours.size).toBe(Math.min(planned.length, MAX_DETOUR_STATIONS));
    const measured = planned.map((p) => ({ ...p, detourMin: detours.get(p.station.properties.id) }));
    const best = bestWithin(measured, 60);
    const within = measured.filter((p) => p.detourMin !== undefined && p.detourMin >= 0 && p.detourMin <= 60);
    expect(best?.station.properties.price).toBe(
      Math.min(...within.map((p) => p.station.properties.price ?? 0)),
    );
  });

  it('stops measuring quietly when the planner moves on', async () => {
    const { routes, ends } = await findRoutes(api, MADRID_TOLEDO, null);
    const route = routes[0];
    if (!route) throw new Error('no route');
    const planned = await stationsAlong(api, route, 'B7', 5);
    const controller = new AbortController();
    const seen: string[] = [];
    await measureDetours(api, route, planned, ends, controller.signal, (line) => {
      seen.push(line.id);
      controller.abort();
    });
    expect(seen.length).toBeLessThanOrEqual(1);
  });

  it('says in words why a step gives nothing', async () => {
    fuel.photon.features = [];
    try {
      const nowhere = await geocode(api, 'Zzyzx Nowhere', null);
      expect(nowhere.places).toEqual([]);
      await expect(findRoutes(api, { ...MADRID_TOLEDO, origin: 'Zzyzx Nowhere' }, null)).rejects.toThrow(
        new TripError(
          'No place found for “Zzyzx Nowhere” (the place search may not be set up on this server).',
        ),
      );
    } finally {
      fuel.photon.reset();
    }
    // A place found by name is an end as well.
    const named = await findRoutes(api, { ...MADRID_TOLEDO, origin: 'Madrid' }, null);
    expect(named.ends.origin).toEqual((await geocode(api, 'Madrid', null)).places[0]?.coordinates);
    fuel.osrm.mode = 'error';
    try {
      await expect(findRoutes(api, MADRID_TOLEDO, null)).rejects.toThrow(/^No route: /);
    } finally {
      fuel.osrm.reset();
    }
  });
});
