/** The corridor's line: a route's small bends left out, so a band kilometres wide draws without fans. */
import { describe, expect, it } from 'vitest';
import type { LonLat } from './api';
import { simplified } from './geometry';

describe('simplified', () => {
  it('leaves out the points within the tolerance of the line, keeping both ends and real bends', () => {
    // Northward with a 50 m wiggle every 100 m, then a turn east 2 km on.
    const wiggly: LonLat[] = [];
    for (let i = 0; i <= 20; i++) wiggly.push([5.7 + (i % 2) * 0.0006, 45.0 + i * 0.0009]);
    wiggly.push([5.73, 45.018]);
    const kept = simplified(wiggly, 500);
    expect(kept[0]).toEqual(wiggly[0]);
    expect(kept.at(-1)).toEqual([5.73, 45.018]);
    expect(kept.length).toBeLessThanOrEqual(4);
    // A tolerance below the wiggle keeps it.
    expect(simplified(wiggly, 10).length).toBe(wiggly.length);
  });

  it('keeps a leg that goes past an end and comes back along the same line', () => {
    // North 10 km, then back south 5 km: the far end is kept.
    const back: LonLat[] = [
      [5.7, 45.0],
      [5.7, 45.09],
      [5.7, 45.045],
    ];
    expect(simplified(back, 500)).toEqual(back);
  });

  it('keeps no segment shorter than the tolerance, and a line of two points as it is', () => {
    const hook: LonLat[] = [
      [5.7243, 45.1884],
      [5.7238, 45.1885],
      [5.7236, 45.1883],
      [5.74, 45.2],
      [5.76, 45.23],
    ];
    const kept = simplified(hook, 500);
    for (let i = 1; i < kept.length; i++) {
      const [ax = 0, ay = 0] = kept[i - 1] as LonLat;
      const [bx = 0, by = 0] = kept[i] as LonLat;
      const metres = Math.hypot((bx - ax) * 78_700, (by - ay) * 110_574);
      expect(metres).toBeGreaterThanOrEqual(500);
    }
    expect(simplified(hook.slice(0, 2), 500)).toEqual(hook.slice(0, 2));
  });
});
