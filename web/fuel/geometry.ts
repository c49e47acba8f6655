/** Plane geometry the map page draws with. */
import type { LonLat } from './api';

/**
 * The line with every point left out that lies within `toleranceM` metres of the straight line between
 * the points kept around it (Douglas-Peucker), measured on a plane local to the line (metres east and
 * north of its first point): good for a band drawn at a few kilometres' width.
 */
export function simplified(points: LonLat[], toleranceM: number): LonLat[] {
  if (points.length < 3) return points;
  const [lon0 = 0, lat0 = 0] = points[0] as LonLat;
  const east = 111_320 * Math.cos((lat0 * Math.PI) / 180);
  const xy = points.map(([lon = 0, lat = 0]) => [(lon - lon0) * east, (lat - lat0) * 110_574] as const);
  const keep = new Uint8Array(points.length);
  keep[0] = 1;
  keep[points.length - 1] = 1;
  const stack: [number, number][] = [[0, points.length - 1]];
  while (stack.length > 0) {
    const [first, last] = stack.pop() as [number, number];
    const [ax, ay] = xy[first] as readonly [number, number];
    const [bx, by] = xy[last] as readonly [number, number];
    const dx = bx - ax;
    const dy = by - ay;
    const squared = dx * dx + dy * dy;
    let farthest = -1;
    let distance = toleranceM;
    for (let i = first + 1; i < last; i++) {
      const [px, py] = xy[i] as readonly [number, number];
      // Distance to the segment, not to the line through it: a leg that goes past an end and comes back
      // along the same line is kept.
      const t = squared === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / squared));
      const d = Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
      if (d > distance) {
        distance = d;
        farthest = i;
      }
    }
    if (farthest >= 0) {
      keep[farthest] = 1;
      stack.push([first, farthest], [farthest, last]);
    }
  }
  // A kept point within the tolerance of the one before it makes a segment far shorter than the band is
  // wide, which the map draws as a sliver: left out too (the last point stays).
  const out: number[] = [];
  for (let i = 0; i < points.length; i++) {
    if (keep[i] !== 1) continue;
    const previous = out[out.length - 1];
    const [px, py] = xy[i] as readonly [number, number];
    const near = (j: number) => {
      const [qx, qy] = xy[j] as readonly [number, number];
      return Math.hypot(px - qx, py - qy) < toleranceM;
    };
    if (previous !== undefined && near(previous)) {
      if (i === points.length - 1) out[out.length - 1] = i;
      continue;
    }
    out.push(i);
  }
  if (out.length === 1) out.push(points.length - 1);
  return out.map((i) => points[i] as LonLat);
}
