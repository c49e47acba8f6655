/** Distances along a route and the detour anchors placed either side of a station on it. */
type LonLat = number[];

const EARTH_KM = 6371.0088;
const rad = (deg: number) => (deg * Math.PI) / 180;

export function haversineKm(a: LonLat, b: LonLat): number {
  const [lon1 = 0, lat1 = 0] = a;
  const [lon2 = 0, lat2 = 0] = b;
  const dLat = rad(lat2 - lat1);
  const dLon = rad(lon2 - lon1);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Kilometres from the start at each point of a line. */
export function cumulativeKm(line: LonLat[]): number[] {
  const out = [0];
  for (let i = 1; i < line.length; i++)
    out.push((out[i - 1] ?? 0) + haversineKm(line[i - 1] as LonLat, line[i] as LonLat));
  return out;
}

export interface RouteLine {
  coordinates: LonLat[];
  /** Seconds from the start at each point (the route's `durations`). */
  durations: number[];
}

export interface Measured {
  km: number[];
  totalKm: number;
}

export const measure = (route: RouteLine): Measured => {
  const km = cumulativeKm(route.coordinates);
  return { km, totalKm: km.at(-1) ?? 0 };
};

/** The point and the seconds from the start at `atKm` along the route (clamped to its ends). */
export function pointAt(route: RouteLine, measured: Measured, atKm: number): { point: LonLat; sec: number } {
  const { km } = measured;
  const target = Math.max(0, Math.min(measured.totalKm, atKm));
  const hi = km.findIndex((value) => value >= target);
  if (hi <= 0) return { point: route.coordinates[0] as LonLat, sec: route.durations[0] ?? 0 };
  const lo = hi - 1;
  const span = (km[hi] ?? 0) - (km[lo] ?? 0);
  const t = span > 0 ? (target - (km[lo] ?? 0)) / span : 0;
  const a = route.coordinates[lo] as LonLat;
  const b = route.coordinates[hi] as LonLat;
  const point = [
    (a[0] ?? 0) + ((b[0] ?? 0) - (a[0] ?? 0)) * t,
    (a[1] ?? 0) + ((b[1] ?? 0) - (a[1] ?? 0)) * t,
  ];
  const sec = (route.durations[lo] ?? 0) + ((route.durations[hi] ?? 0) - (route.durations[lo] ?? 0)) * t;
  return { point, sec };
}

/** How far either side of a station the detour anchors are placed on the route. */
export const ANCHOR_KM = 3;

/**
 * The route-relative detour request of one station at `fraction` of the route's length: a point about
 * 3 km before it and one about 3 km after it on the route, and the seconds the route takes between them.
 */
export function anchorsFor(
  route: RouteLine,
  measured: Measured,
  fraction: number,
): { before: LonLat; after: LonLat; onRouteSec: number } {
  const at = fraction * measured.totalKm;
  const before = pointAt(route, measured, at - ANCHOR_KM);
  const after = pointAt(route, measured, at + ANCHOR_KM);
  return { before: before.point, after: after.point, onRouteSec: Math.max(0, after.sec - before.sec) };
}
