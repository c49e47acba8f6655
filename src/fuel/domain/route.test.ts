import { describe, expect, it } from 'vitest';
import type { LonLat } from '../model/geometry';
import { realSample } from '../scrapers/testing/fake-feeds';
import { readRoute } from '../upstreams/osrm';
import { cumulativeDurations, thinIndices, toRoute } from './route';

describe('thinIndices', () => {
  it('keeps everything up to the limit', () => {
    expect(thinIndices(3, 5)).toEqual([0, 1, 2]);
  });
  it('spreads the kept points evenly, always first and last, never twice the same', () => {
    for (const length of [2001, 2500, 10_000, 123_457]) {
      const kept = thinIndices(length, 2000);
      expect(kept).toHaveLength(2000);
      expect(kept[0]).toBe(0);
      expect(kept.at(-1)).toBe(length - 1);
      expect(kept.every((k, i) => i === 0 || k > (kept[i - 1] ?? -1))).toBe(true);
    }
  });
});

describe('cumulativeDurations', () => {
  const coordinates: LonLat[] = [
    [0, 0],
    [0, 1],
    [0, 3],
  ];
  it('sums the per-segment durations of every leg', () => {
    const route = { distance: 3, duration: 30, coordinates, legDurations: [[10], [20]], legTotals: [10, 20] };
    expect(cumulativeDurations(route)).toEqual([0, 10, 30]);
  });
  it('spreads the duration by distance when the annotations do not fit the line', () => {
    const route = { distance: 3, duration: 30, coordinates, legDurations: [[10]], legTotals: undefined };
    const spread = cumulativeDurations(route);
    expect(spread[0]).toBe(0);
    expect(spread[1]).toBeCloseTo(10, 6);
    expect(spread[2]).toBeCloseTo(30, 6);
    expect(cumulativeDurations({ ...route, legDurations: undefined })[2]).toBeCloseTo(30, 6);
  });
  it('converts metres to kilometres and computes the box before thinning', () => {
    const long: LonLat[] = Array.from({ length: 4001 }, (_, i) => [i / 1000, i === 1 ? 5 : 0] as LonLat);
    const route = toRoute({
      distance: 444_000,
      duration: 4000,
      coordinates: long,
      legDurations: [Array(4000).fill(1)],
      legTotals: [4000],
    });
    expect(route.distance).toBe(444);
    expect(route.bbox).toEqual([0, 0, 4, 5]);
    expect(route.geometry.coordinates).toHaveLength(2000);
    expect(route.geometry.coordinates.some((c) => c[1] === 5)).toBe(false);
    expect(route.durations.at(-1)).toBe(4000);
  });
  it("spreads what a leg's rounded segment times leave out over that leg", () => {
    const route = { distance: 3, duration: 40, coordinates, legDurations: [[10], [20]], legTotals: [12, 28] };
    expect(cumulativeDurations(route)).toEqual([0, 12, 40]);
    const twoSegments = { ...route, legDurations: [[5, 5]], legTotals: [40] };
    expect(cumulativeDurations(twoSegments)).toEqual([0, 20, 40]);
  });
});

describe('a real engine answer (fixtures/real: Grenoble, 1 leg, 1,021 segments)', () => {
  const answer = JSON.parse(realSample('osrm-izway-route.json.gz').toString('utf8'));
  const engine = readRoute(answer.routes[0]);

  it('reads the encoded polyline and the leg times', () => {
    expect(engine?.coordinates).toHaveLength(1022);
    expect(engine?.legDurations?.[0]).toHaveLength(1021);
    expect(engine?.legTotals).toEqual([2774]);
  });

  it('per-point times end at the route duration and distance is to the metre', () => {
    if (!engine) throw new Error('no route');
    const route = toRoute(engine);
    expect(route.duration).toBe(2774);
    expect(route.distance).toBe(58.826);
    expect(route.durations[0]).toBe(0);
    expect(route.durations.at(-1)).toBe(2774);
    expect(route.durations.every((t, i) => i === 0 || t >= (route.durations[i - 1] ?? 0))).toBe(true);
    // The segment times add up to 2,701.6 s: each is scaled by 2,774 / 2,701.6.
    const first = (engine.legDurations?.[0]?.[0] ?? 0) * (2774 / 2701.6);
    expect(route.durations[1]).toBe(Math.round(first * 10) / 10);
  });
});
