import { describe, expect, it } from 'vitest';
import type { LonLat } from '../store/store';
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
    const route = { distance: 3, duration: 30, coordinates, legDurations: [[10], [20]] };
    expect(cumulativeDurations(route)).toEqual([0, 10, 30]);
  });
  it('spreads the duration by distance when the annotations do not fit the line', () => {
    const route = { distance: 3, duration: 30, coordinates, legDurations: [[10]] };
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
    });
    expect(route.distance).toBe(444);
    expect(route.bbox).toEqual([0, 0, 4, 5]);
    expect(route.geometry.coordinates).toHaveLength(2000);
    expect(route.geometry.coordinates.some((c) => c[1] === 5)).toBe(false);
    expect(route.durations.at(-1)).toBe(4000);
  });
});
