/** A stand-in for the routing engine's HTTP API (`/route/v1/driving/…`), answering in OSRM's format. */
import { cumulativeKm, greatCircleKm, intermediate } from '../../geo/sphere';
import type { LonLat } from '../../model/geometry';
import { type FailureMode, garbage, json, type Running, serve, sleep } from './serve';

export interface FakeOsrm extends Running {
  mode: FailureMode | 'no-route';
  /** Milliseconds before each answer. */
  delayMs: number;
  /** Road kilometres per straight kilometre, and speed in metres per second. */
  roadFactor: number;
  speed: number;
  /** Points per leg of the geometry (the real engine sends one per road node). */
  pointsPerLeg: number;
  /** Overrides the seconds of a route through these points; null answers NoRoute. */
  durationOf?: (points: LonLat[]) => number | null;
  /** Every request's path and query, in arrival order. */
  readonly requests: URL[];
  readonly inflight: number;
  readonly maxInflight: number;
  /** Requests whose socket closed before the answer. */
  readonly abandoned: number;
  /** Holds every answer until `release()`. */
  hold(): void;
  release(): void;
  reset(): void;
}

function osrmRoute(points: LonLat[], fake: FakeOsrm, detourVia?: LonLat) {
  const stops = detourVia ? [points[0] as LonLat, detourVia, points[1] as LonLat] : points;
  const legs: { coordinates: LonLat[]; durations: number[]; distance: number; duration: number }[] = [];
  for (let i = 0; i < points.length - 1; i++) {
    const from = points[i] as LonLat;
    const to = points[i + 1] as LonLat;
    const path = detourVia && points.length === 2 ? stops : [from, to];
    const coordinates: LonLat[] = [];
    for (let p = 0; p < path.length - 1; p++) {
      const n = Math.max(2, Math.round(fake.pointsPerLeg / (path.length - 1)));
      for (let k = p === 0 ? 0 : 1; k < n; k++) {
        // The engine sends coordinates to 6 decimals.
        const [lon, lat] = intermediate(path[p] as LonLat, path[p + 1] as LonLat, k / (n - 1));
        coordinates.push([Math.round(lon * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6]);
      }
    }
    const cum = cumulativeKm(coordinates);
    const durations = coordinates
      .slice(1)
      .map((_, k) => (((cum[k + 1] ?? 0) - (cum[k] ?? 0)) * 1000 * fake.roadFactor) / fake.speed);
    const distance = (cum.at(-1) ?? 0) * 1000 * fake.roadFactor;
    legs.push({ coordinates, durations, distance, duration: distance / fake.speed });
  }
  const coordinates = legs.flatMap((leg, i) => (i === 0 ? leg.coordinates : leg.coordinates.slice(1)));
  const distance = legs.reduce((sum, leg) => sum + leg.distance, 0);
  const duration = fake.durationOf?.(points) ?? legs.reduce((sum, leg) => sum + leg.duration, 0);
  return {
    distance,
    duration,
    weight: duration,
    weight_name: 'routability',
    geometry: { type: 'LineString', coordinates },
    legs: legs.map((leg) => ({
      distance: leg.distance,
      duration: leg.duration,
      weight: leg.duration,
      summary: '',
      steps: [],
      annotation: { duration: leg.durations },
    })),
  };
}

export async function startFakeOsrm(): Promise<FakeOsrm> {
  let release: () => void = () => {};
  let held: Promise<void> | undefined;
  let inflight = 0;
  let maxInflight = 0;
  let abandoned = 0;
  const requests: URL[] = [];
  const fake = {
    mode: 'ok',
    delayMs: 0,
    roadFactor: 1.25,
    speed: 25,
    pointsPerLeg: 40,
    durationOf: undefined,
    requests,
    get inflight() {
      return inflight;
    },
    get maxInflight() {
      return maxInflight;
    },
    get abandoned() {
      return abandoned;
    },
    hold() {
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
    release() {
      held = undefined;
      release();
    },
    reset() {
      fake.mode = 'ok';
      fake.delayMs = 0;
      fake.durationOf = undefined;
      fake.pointsPerLeg = 40;
      requests.length = 0;
      maxInflight = 0;
      abandoned = 0;
    },
  } as FakeOsrm;
  const running = await serve(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://osrm');
    requests.push(url);
    inflight++;
    maxInflight = Math.max(maxInflight, inflight);
    let gone = false;
    res.on('close', () => {
      inflight--;
      if (!res.writableFinished) {
        gone = true;
        abandoned++;
      }
    });
    if (fake.delayMs > 0) await sleep(fake.delayMs);
    if (held) await held;
    if (gone || fake.mode === 'hang') return;
    const match = /^\/route\/v1\/[^/]+\/(.+)$/.exec(url.pathname);
    const points = match?.[1]
      ?.split(';')
      .map((pair) => pair.split(',').map(Number) as LonLat)
      .filter((p) => p.length === 2 && p.every(Number.isFinite));
    if (!points || points.length < 2) {
      json(res, 400, {
        code: 'InvalidUrl',
        message: `URL string malformed close to position 1: "${url.pathname}"`,
      });
      return;
    }
    if (fake.mode === 'error') return json(res, 500, { code: 'InternalError', message: 'engine failure' });
    if (fake.mode === 'garbage') return garbage(res);
    if (fake.mode === 'no-route' || fake.durationOf?.(points) === null) {
      return json(res, 400, { code: 'NoRoute', message: 'Impossible route between points' });
    }
    const alternativesParam = url.searchParams.get('alternatives');
    const wanted = alternativesParam === 'true' ? 1 : Number(alternativesParam) || 0;
    const alternatives = points.length === 2 ? Math.min(wanted, 2) : 0;
    const overview = url.searchParams.get('overview') !== 'false';
    const routes = [osrmRoute(points, fake)];
    for (let a = 1; a <= alternatives; a++) {
      // A longer way round: through a point beside the middle of the straight line.
      const mid = intermediate(points[0] as LonLat, points[1] as LonLat, 0.5);
      const km = greatCircleKm(points[0] as LonLat, points[1] as LonLat) * 0.1 * a;
      routes.push(osrmRoute(points, fake, [mid[0], mid[1] + km / 111]));
    }
    json(res, 200, {
      code: 'Ok',
      routes: routes.map((r) => (overview ? r : { ...r, geometry: undefined })),
      waypoints: points.map((location) => ({ location, name: '', distance: 0, hint: 'fake' })),
    });
  });
  return Object.assign(fake, { url: running.url, close: running.close });
}
