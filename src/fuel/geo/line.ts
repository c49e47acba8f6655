/** The nearest point of a line to many points, and how far along the line it lies. */
import type { LonLat } from '../model/geometry';
import { padBox } from './boxes';
import { arcLatRange, cross, cumulativeKm, EARTH_RADIUS_KM, norm, RAD, toVec, type Vec } from './sphere';

/**
 * A line made ready for many nearest-point questions: the unit vectors of its points and, per segment, the
 * normal of its great circle and the two vectors that tell whether a point's foot falls inside the arc.
 * Each question then costs a few dot products per segment and one arc-tangent for the winner.
 */
export interface PreparedLine {
  points: LonLat[];
  /** Cumulative great-circle length at each point, km. */
  cum: number[];
  vectors: Vec[];
  /** Per segment: unit normal N, N×A and B×N (zero vectors for a segment of no length). */
  normals: Vec[];
  fromStart: Vec[];
  toEnd: Vec[];
  /**
   * With a reach: per segment, the box (minLon, minLat, maxLon, maxLat) holding every point within that
   * reach of it, or NaNs when no single box does (across the antimeridian, near a pole); a point outside a
   * segment's box is not measured against it.
   */
  reachBoxes?: Float64Array;
}

/**
 * Prepares a line; with `reachKm`, nearest-point questions skip the segments farther than that from the
 * point, so only an answer within `reachKm` is exact (one beyond it may be farther than the truth, or
 * Infinity): what a search that drops everything beyond its reach needs, at a fraction of the cost.
 */
export function prepareLine(points: LonLat[], reachKm?: number): PreparedLine {
  const vectors = points.map(toVec);
  const normals: Vec[] = [];
  const fromStart: Vec[] = [];
  const toEnd: Vec[] = [];
  for (let i = 0; i < points.length - 1; i++) {
    const A = vectors[i] as Vec;
    const B = vectors[i + 1] as Vec;
    const n = cross(A, B);
    const len = norm(n);
    const N: Vec = len < 1e-12 ? [0, 0, 0] : [n[0] / len, n[1] / len, n[2] / len];
    normals.push(N);
    fromStart.push(cross(N, A));
    toEnd.push(cross(B, N));
  }
  const prepared: PreparedLine = { points, cum: cumulativeKm(points), vectors, normals, fromStart, toEnd };
  if (reachKm !== undefined) prepared.reachBoxes = segmentBoxes(points, reachKm);
  return prepared;
}

function segmentBoxes(points: LonLat[], reachKm: number): Float64Array {
  const boxes = new Float64Array(Math.max(0, points.length - 1) * 4).fill(Number.NaN);
  for (let i = 0; i < points.length - 1; i++) {
    const a = points[i] as LonLat;
    const b = points[i + 1] as LonLat;
    if (Math.abs(a[0] - b[0]) > 180) continue;
    const [lo, hi] = arcLatRange(a, b);
    const padded = padBox([Math.min(a[0], b[0]), lo, Math.max(a[0], b[0]), hi], reachKm);
    const box = padded[0];
    if (padded.length !== 1 || !box || box[2] - box[0] >= 360) continue;
    boxes.set(box, i * 4);
  }
  return boxes;
}

/** Nearest point of the segments first..last-1 to p: distance and km along the whole line. */
export function nearestOnLine(
  line: PreparedLine,
  p: LonLat,
  first = 0,
  last = line.points.length - 1,
): { distanceKm: number; alongKm: number } {
  return nearestOnLineAt(line, p[0], p[1], first, last);
}

export interface Nearest {
  distanceKm: number;
  alongKm: number;
}

/**
 * The same for a point given as two numbers, written into `out` when given (a search of many points reuses
 * one). Called for every candidate of a corridor search, so the loop allocates nothing: it keeps the best
 * squared chord and how it was reached, and builds the foot once.
 */
export function nearestOnLineAt(
  line: PreparedLine,
  lon: number,
  lat: number,
  first = 0,
  last = line.points.length - 1,
  out: Nearest = { distanceKm: 0, alongKm: 0 },
): Nearest {
  const cosLat = Math.cos(lat * RAD);
  const px = cosLat * Math.cos(lon * RAD);
  const py = cosLat * Math.sin(lon * RAD);
  const pz = Math.sin(lat * RAD);
  let bestChord = Infinity;
  let bestSegment = -1;
  /** 0: foot inside the arc (offset `bestOffset` along N); 1: the segment's start; 2: its end. */
  let bestKind = 0;
  let bestOffset = 0;
  const boxes = line.reachBoxes;
  for (let i = first; i < last; i++) {
    // Outside a segment's reach box (never true for NaNs): too far from that segment to matter.
    if (
      boxes &&
      ((boxes[i * 4] as number) > lon ||
        (boxes[i * 4 + 2] as number) < lon ||
        (boxes[i * 4 + 1] as number) > lat ||
        (boxes[i * 4 + 3] as number) < lat)
    ) {
      continue;
    }
    const N = line.normals[i] as Vec;
    const U = line.fromStart[i] as Vec;
    const V = line.toEnd[i] as Vec;
    const inside =
      (N[0] !== 0 || N[1] !== 0 || N[2] !== 0) &&
      px * U[0] + py * U[1] + pz * U[2] >= 0 &&
      px * V[0] + py * V[1] + pz * V[2] >= 0;
    if (inside) {
      const offset = px * N[0] + py * N[1] + pz * N[2];
      // Squared chord to the foot on the great circle: 2 - 2·cos(angle), with sin(angle) = |P·N|.
      const chord = 2 - 2 * Math.sqrt(Math.max(0, 1 - offset * offset));
      if (chord < bestChord) {
        bestChord = chord;
        bestSegment = i;
        bestKind = 0;
        bestOffset = offset;
      }
      continue;
    }
    const A = line.vectors[i] as Vec;
    const B = line.vectors[i + 1] as Vec;
    const toA = (px - A[0]) ** 2 + (py - A[1]) ** 2 + (pz - A[2]) ** 2;
    const toB = (px - B[0]) ** 2 + (py - B[1]) ** 2 + (pz - B[2]) ** 2;
    if (toA < bestChord || toB < bestChord) {
      bestChord = Math.min(toA, toB);
      bestSegment = i;
      bestKind = toA <= toB ? 1 : 2;
    }
  }
  if (bestSegment < 0) {
    out.distanceKm = Infinity;
    out.alongKm = 0;
    return out;
  }
  const start = line.cum[bestSegment] ?? 0;
  const end = line.cum[bestSegment + 1] ?? start;
  let alongKm = bestKind === 1 ? start : end;
  if (bestKind === 0) {
    // The angle from the segment's start to the foot (P less its offset along N), as `angle` computes it,
    // written out: this runs for every candidate, and two small arrays each add up to megabytes.
    const N = line.normals[bestSegment] as Vec;
    const A = line.vectors[bestSegment] as Vec;
    const fx = px - bestOffset * N[0];
    const fy = py - bestOffset * N[1];
    const fz = pz - bestOffset * N[2];
    const cx = A[1] * fz - A[2] * fy;
    const cy = A[2] * fx - A[0] * fz;
    const cz = A[0] * fy - A[1] * fx;
    const theta = Math.atan2(Math.sqrt(cx * cx + cy * cy + cz * cz), A[0] * fx + A[1] * fy + A[2] * fz);
    alongKm = Math.min(start + theta * EARTH_RADIUS_KM, end);
  }
  out.distanceKm = 2 * Math.asin(Math.min(1, Math.sqrt(bestChord) / 2)) * EARTH_RADIUS_KM;
  out.alongKm = alongKm;
  return out;
}
