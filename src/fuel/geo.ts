/**
 * Distances on the globe, on a sphere of the Earth's mean radius (the sphere PostGIS uses for geography
 * when asked not to use the spheroid), so both store backends measure the same way.
 */
import type { BBox, LonLat } from './store/store';

export const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;
/** Kilometres per degree of latitude on that sphere. */
export const KM_PER_DEGREE = EARTH_RADIUS_KM * RAD;

type Vec = [number, number, number];

function toVec([lon, lat]: LonLat): Vec {
  const cosLat = Math.cos(lat * RAD);
  return [cosLat * Math.cos(lon * RAD), cosLat * Math.sin(lon * RAD), Math.sin(lat * RAD)];
}

const dot = (a: Vec, b: Vec) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec, b: Vec): Vec => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const norm = (a: Vec) => Math.sqrt(dot(a, a));
/** Angle between two unit vectors, stable for tiny and large angles. */
const angle = (a: Vec, b: Vec) => Math.atan2(norm(cross(a, b)), dot(a, b));

/** Great-circle distance in km (haversine). */
export function greatCircleKm(a: LonLat, b: LonLat): number {
  const dLat = (b[1] - a[1]) * RAD;
  const dLon = (b[0] - a[0]) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * RAD) * Math.cos(b[1] * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Latitude range covered by the arc a→b (a great circle can bulge poleward of both ends). */
export function arcLatRange(a: LonLat, b: LonLat): [number, number] {
  let lo = Math.min(a[1], b[1]);
  let hi = Math.max(a[1], b[1]);
  const A = toVec(a);
  const B = toVec(b);
  const n = cross(A, B);
  const nLen = norm(n);
  if (nLen < 1e-12) return [lo, hi];
  // The great circle's northernmost point is where it meets the plane through the pole and its normal.
  const z: Vec = [0, 0, 1];
  const towardPole = cross(cross(n, z), n);
  const tLen = norm(towardPole);
  if (tLen < 1e-12) return [lo, hi];
  for (const sign of [1, -1]) {
    const V: Vec = [
      (sign * towardPole[0]) / tLen,
      (sign * towardPole[1]) / tLen,
      (sign * towardPole[2]) / tLen,
    ];
    const onArc = Math.abs(angle(A, V) + angle(V, B) - angle(A, B)) < 1e-9;
    if (onArc) {
      const lat = Math.asin(Math.max(-1, Math.min(1, V[2]))) / RAD;
      lo = Math.min(lo, lat);
      hi = Math.max(hi, lat);
    }
  }
  return [lo, hi];
}

/**
 * Boxes (in degrees) that hold every point within `km` of a lon/lat box whose longitudes do not cross the
 * antimeridian. Two boxes when the padded box wraps around ±180; the full longitude range near a pole.
 */
export function padBox([minLon, minLat, maxLon, maxLat]: BBox, km: number): BBox[] {
  const dLat = km / KM_PER_DEGREE;
  const lo = minLat - dLat;
  const hi = maxLat + dLat;
  const poleward = Math.max(Math.abs(lo), Math.abs(hi));
  if (poleward >= 89) return [[-180, Math.max(-90, lo), 180, Math.min(90, hi)]];
  // Allow for the widest point of a small circle: asin(sin(r)/cos(lat)) ≥ r/cos(lat) is close enough when
  // padded by 1 %, and the exact distance check follows the box anyway.
  const dLon = (dLat / Math.cos(poleward * RAD)) * 1.01;
  const west = minLon - dLon;
  const east = maxLon + dLon;
  if (east - west >= 360) return [[-180, lo, 180, hi]];
  const boxes: BBox[] = [[Math.max(-180, west), lo, Math.min(180, east), hi]];
  if (west < -180) boxes.push([west + 360, lo, 180, hi]);
  if (east > 180) boxes.push([-180, lo, east - 360, hi]);
  return boxes;
}

/** Boxes holding every point within `radiusKm` of `center`. */
export function radiusBoxes(center: LonLat, radiusKm: number): BBox[] {
  return padBox([center[0], center[1], center[0], center[1]], radiusKm);
}

/** Cumulative great-circle length at each point of a line, in km (first entry 0). */
export function cumulativeKm(line: LonLat[]): number[] {
  const out = [0];
  for (let i = 1; i < line.length; i++) {
    out.push((out[i - 1] ?? 0) + greatCircleKm(line[i - 1] as LonLat, line[i] as LonLat));
  }
  return out;
}

/** A run of consecutive segments of a line and the boxes that hold its corridor. */
export interface LineChunk {
  /** Index of the chunk's first point in the line. */
  first: number;
  /** Index of the chunk's last point in the line. */
  last: number;
  startKm: number;
  lengthKm: number;
  boxes: BBox[];
}

/**
 * Splits a line into chunks of up to `segments` segments and gives each the boxes that contain every point
 * within `corridorKm` of it; a spatial index answers small boxes far better than the one box of a long line.
 * 32 segments measured best on both backends (scripts/bench/fuel.ts): fewer probes, little overlap.
 */
export function corridorChunks(line: LonLat[], corridorKm: number, segments = 32): LineChunk[] {
  const cum = cumulativeKm(line);
  const chunks: LineChunk[] = [];
  for (let first = 0; first < line.length - 1; first += segments) {
    const last = Math.min(first + segments, line.length - 1);
    let minLat = 90;
    let maxLat = -90;
    let crossesAntimeridian = false;
    const lons: number[] = [];
    for (let i = first; i < last; i++) {
      const a = line[i] as LonLat;
      const b = line[i + 1] as LonLat;
      const [lo, hi] = arcLatRange(a, b);
      minLat = Math.min(minLat, lo);
      maxLat = Math.max(maxLat, hi);
      if (Math.abs(a[0] - b[0]) > 180) crossesAntimeridian = true;
      lons.push(a[0], b[0]);
    }
    const box: BBox = crossesAntimeridian
      ? [-180, minLat, 180, maxLat]
      : [Math.min(...lons), minLat, Math.max(...lons), maxLat];
    const startKm = cum[first] ?? 0;
    chunks.push({
      first,
      last,
      startKm,
      lengthKm: (cum[last] ?? startKm) - startKm,
      boxes: padBox(box, corridorKm),
    });
  }
  return chunks;
}

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
    const N = line.normals[bestSegment] as Vec;
    const foot: Vec = [px - bestOffset * N[0], py - bestOffset * N[1], pz - bestOffset * N[2]];
    alongKm = Math.min(start + angle(line.vectors[bestSegment] as Vec, foot) * EARTH_RADIUS_KM, end);
  }
  out.distanceKm = 2 * Math.asin(Math.min(1, Math.sqrt(bestChord) / 2)) * EARTH_RADIUS_KM;
  out.alongKm = alongKm;
  return out;
}

export function bboxOf(points: LonLat[]): BBox {
  let minLon = Infinity;
  let minLat = Infinity;
  let maxLon = -Infinity;
  let maxLat = -Infinity;
  for (const [lon, lat] of points) {
    if (lon < minLon) minLon = lon;
    if (lon > maxLon) maxLon = lon;
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
  }
  return [minLon, minLat, maxLon, maxLat];
}

/** The point `km` away from `from` along the initial bearing (degrees clockwise from north). */
export function destination(from: LonLat, bearingDeg: number, km: number): LonLat {
  const d = km / EARTH_RADIUS_KM;
  const theta = bearingDeg * RAD;
  const lat1 = from[1] * RAD;
  const lon1 = from[0] * RAD;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(theta));
  const lon2 =
    lon1 +
    Math.atan2(Math.sin(theta) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  const lon = ((((lon2 / RAD + 540) % 360) + 360) % 360) - 180;
  return [lon, lat2 / RAD];
}

/** The point at fraction `f` of the great-circle arc a→b. */
export function intermediate(a: LonLat, b: LonLat, f: number): LonLat {
  const A = toVec(a);
  const B = toVec(b);
  const d = angle(A, B);
  if (d < 1e-12) return [a[0], a[1]];
  const wa = Math.sin((1 - f) * d) / Math.sin(d);
  const wb = Math.sin(f * d) / Math.sin(d);
  const x = wa * A[0] + wb * B[0];
  const y = wa * A[1] + wb * B[1];
  const z = wa * A[2] + wb * B[2];
  return [Math.atan2(y, x) / RAD, Math.atan2(z, Math.sqrt(x * x + y * y)) / RAD];
}
