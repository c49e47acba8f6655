import { describe, expect, it } from 'vitest';
import type { LonLat } from '../model/geometry';
import { corridorChunks, padBox, radiusBoxes } from './boxes';
import { nearestOnLine, prepareLine } from './line';
import { arcLatRange, destination, greatCircleKm, intermediate } from './sphere';

const MADRID: LonLat = [-3.7038, 40.4168];
const LISBON: LonLat = [-9.1393, 38.7223];

/** Nearest point by sampling the line densely: slow and plain, to check the fast one against. */
function bruteForce(line: LonLat[], p: LonLat): { distanceKm: number; alongKm: number } {
  let best = { distanceKm: Infinity, alongKm: 0 };
  let along = 0;
  for (let i = 0; i < line.length - 1; i++) {
    const a = line[i] as LonLat;
    const b = line[i + 1] as LonLat;
    const length = greatCircleKm(a, b);
    const steps = Math.max(1, Math.ceil(length / 0.01));
    for (let k = 0; k <= steps; k++) {
      const q = intermediate(a, b, k / steps);
      const d = greatCircleKm(p, q);
      if (d < best.distanceKm) best = { distanceKm: d, alongKm: along + (k / steps) * length };
    }
    along += length;
  }
  return best;
}

describe('geo', () => {
  it('measures great-circle distances', () => {
    expect(greatCircleKm(MADRID, LISBON)).toBeCloseTo(502.7, 0);
    expect(greatCircleKm([0, 0], [0, 1])).toBeCloseTo(111.195, 3);
    const there = destination(MADRID, 63, 250);
    expect(greatCircleKm(MADRID, there)).toBeCloseTo(250, 6);
  });

  it('finds the nearest point of a line on the sphere, beside it, before it and past it', () => {
    const line: LonLat[] = [MADRID, [-4.8319, 39.9635], [-6.3447, 38.9161], LISBON];
    const prepared = prepareLine(line);
    const points: LonLat[] = [
      destination([-5.5, 39.5], 20, 3),
      destination([-5.5, 39.5], 200, 12),
      destination(MADRID, 45, 8),
      destination(LISBON, 280, 30),
      [-4.8319, 39.9635],
    ];
    for (const p of points) {
      const fast = nearestOnLine(prepared, p);
      const slow = bruteForce(line, p);
      expect(fast.distanceKm).toBeCloseTo(slow.distanceKm, 1);
      expect(fast.alongKm).toBeCloseTo(slow.alongKm, 0);
    }
    expect(nearestOnLine(prepared, destination(MADRID, 45, 8))).toMatchObject({ alongKm: 0 });
    expect(nearestOnLine(prepared, destination(LISBON, 280, 30)).alongKm).toBeCloseTo(
      prepared.cum.at(-1) as number,
      6,
    );
  });

  it('gives the same nearest point with a reach for every point within it, and skips far segments', () => {
    // A wiggly line that comes back near itself, so several segments compete for each point.
    const line: LonLat[] = [];
    for (let i = 0; i <= 120; i++) line.push(destination(MADRID, (i * 7) % 360, 5 + (i % 9) * 3));
    const reachKm = 4;
    const plain = prepareLine(line);
    const reaching = prepareLine(line, reachKm);
    let within = 0;
    for (let i = 0; i < 400; i++) {
      const p = destination(MADRID, (i * 37) % 360, (i % 40) * 0.9);
      const full = nearestOnLine(plain, p);
      const fast = nearestOnLine(reaching, p);
      if (full.distanceKm <= reachKm) {
        within++;
        expect(fast).toEqual(full);
      } else expect(fast.distanceKm).toBeGreaterThan(reachKm);
    }
    expect(within).toBeGreaterThan(50);
    expect(nearestOnLine(reaching, destination(MADRID, 0, 200)).distanceKm).toBe(Infinity);
  });

  it('knows a great circle bulges poleward between two points at the same latitude', () => {
    const [lo, hi] = arcLatRange([0, 60], [40, 60]);
    expect(lo).toBe(60);
    // The vertex of that circle: tan(lat) = tan(60°) / cos(20°).
    expect(hi).toBeCloseTo((Math.atan(Math.tan(Math.PI / 3) / Math.cos(Math.PI / 9)) * 180) / Math.PI, 6);
  });

  it('pads boxes by kilometres, wider in longitude at high latitude, split at the antimeridian', () => {
    const [box] = padBox([10, 60, 10, 60], 10);
    expect(box?.[3] as number).toBeCloseTo(60 + 10 / 111.195, 4);
    expect((box?.[2] as number) - 10).toBeGreaterThan(2 * (10 / 111.195));
    expect(radiusBoxes([179.99, 0], 5)).toHaveLength(2);
    expect(radiusBoxes([0, 89.99], 5)).toEqual([[-180, expect.any(Number), 180, 90]]);
  });

  it('covers every station within the corridor with the boxes of the chunks', () => {
    const line: LonLat[] = Array.from({ length: 50 }, (_, i) => intermediate(MADRID, LISBON, i / 49));
    const chunks = corridorChunks(line, 5, 8);
    expect(chunks).toHaveLength(7);
    expect(chunks.at(-1)?.last).toBe(49);
    const p = destination(intermediate(MADRID, LISBON, 0.5), 0, 4.9);
    const inside = chunks.some((c) =>
      c.boxes.some(([x1, y1, x2, y2]) => p[0] >= x1 && p[0] <= x2 && p[1] >= y1 && p[1] <= y2),
    );
    expect(inside).toBe(true);
  });
});
