/**
 * Distances on the globe, on a sphere of the Earth's mean radius (the sphere PostGIS uses for geography
 * when asked not to use the spheroid), so both store backends measure the same way.
 */
import type { BBox, LonLat } from '../model/geometry';

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

/** `angle` of two vectors given as numbers: the same arithmetic, no arrays. */
function angleOf(ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  const cx = ay * bz - az * by;
  const cy = az * bx - ax * bz;
  const cz = ax * by - ay * bx;
  return Math.atan2(Math.sqrt(cx * cx + cy * cy + cz * cz), ax * bx + ay * by + az * bz);
}

/**
 * Latitude range covered by the arc a→b (a great circle can bulge poleward of both ends). Written with
 * numbers rather than vectors: a corridor search asks it for every segment of its line twice.
 */
export function arcLatRange(a: LonLat, b: LonLat): [number, number] {
  let lo = Math.min(a[1], b[1]);
  let hi = Math.max(a[1], b[1]);
  const cosA = Math.cos(a[1] * RAD);
  const ax = cosA * Math.cos(a[0] * RAD);
  const ay = cosA * Math.sin(a[0] * RAD);
  const az = Math.sin(a[1] * RAD);
  const cosB = Math.cos(b[1] * RAD);
  const bx = cosB * Math.cos(b[0] * RAD);
  const by = cosB * Math.sin(b[0] * RAD);
  const bz = Math.sin(b[1] * RAD);
  // n = A × B, the normal of the great circle.
  const nx = ay * bz - az * by;
  const ny = az * bx - ax * bz;
  const nz = ax * by - ay * bx;
  if (Math.sqrt(nx * nx + ny * ny + nz * nz) < 1e-12) return [lo, hi];
  // The great circle's northernmost point is where it meets the plane through the pole and its normal:
  // along (n × z) × n, with z the pole's vector (0, 0, 1).
  const mx = ny;
  const my = -nx;
  const tx = my * nz;
  const ty = -mx * nz;
  const tz = mx * ny - my * nx;
  const tLen = Math.sqrt(tx * tx + ty * ty + tz * tz);
  if (tLen < 1e-12) return [lo, hi];
  const whole = angleOf(ax, ay, az, bx, by, bz);
  for (const sign of [1, -1]) {
    const vx = (sign * tx) / tLen;
    const vy = (sign * ty) / tLen;
    const vz = (sign * tz) / tLen;
    const onArc = Math.abs(angleOf(ax, ay, az, vx, vy, vz) + angleOf(vx, vy, vz, bx, by, bz) - whole) < 1e-9;
    if (onArc) {
      const lat = Math.asin(Math.max(-1, Math.min(1, vz))) / RAD;
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
