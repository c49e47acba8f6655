/**
 * Distances on the globe, on a sphere of the Earth's mean radius (the sphere PostGIS uses for geography
 * when asked not to use the spheroid), so both store backends measure the same way.
 */
import type { BBox, LonLat } from '../store/store';

export const EARTH_RADIUS_KM = 6371.0088;
export const RAD = Math.PI / 180;
/** Kilometres per degree of latitude on that sphere. */
export const KM_PER_DEGREE = EARTH_RADIUS_KM * RAD;

export type Vec = [number, number, number];

export function toVec([lon, lat]: LonLat): Vec {
  const cosLat = Math.cos(lat * RAD);
  return [cosLat * Math.cos(lon * RAD), cosLat * Math.sin(lon * RAD), Math.sin(lat * RAD)];
}

export const dot = (a: Vec, b: Vec) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec, b: Vec): Vec => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
export const norm = (a: Vec) => Math.sqrt(dot(a, a));
/** Angle between two unit vectors, stable for tiny and large angles. */
export const angle = (a: Vec, b: Vec) => Math.atan2(norm(cross(a, b)), dot(a, b));

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

/** Cumulative great-circle length at each point of a line, in km (first entry 0). */
export function cumulativeKm(line: LonLat[]): number[] {
  const out = [0];
  for (let i = 1; i < line.length; i++) {
    out.push((out[i - 1] ?? 0) + greatCircleKm(line[i - 1] as LonLat, line[i] as LonLat));
  }
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
