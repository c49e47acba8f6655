import type { components } from '../../../generated/fuel/types';
import type { RoutingConfig } from '../config';
import type { LonLat } from '../model/geometry';
import type { OsrmClient } from '../upstreams/osrm';
import { checkLatitudes } from './coordinates';
import type { Semaphore } from './semaphore';

export type DetourRequest = components['schemas']['DetourRequest'];
export type DetourStation = components['schemas']['DetourStation'];
export type DetourResult = components['schemas']['DetourResult'];

export const NO_RESULT = -1;
/** A detour more negative than this means the measurement went wrong, not that the stop saves time. */
const WORST_NEGATIVE_SECONDS = -60;

export interface DetourDeps {
  engine: OsrmClient;
  routing: RoutingConfig;
  /** Engine calls in flight across every request. */
  inflight: Semaphore;
}

export interface DetourSummary {
  requested: number;
  routed: number;
  started: number;
  finished: number;
  /** Stations never started because the client went away. */
  dropped: number;
}

/** Rejects coordinates the schema cannot check (latitudes of the [lon, lat] pairs) before any line is sent. */
export function checkDetourRequest(body: DetourRequest): void {
  checkLatitudes([
    { path: '/body/origin', value: body.origin as LonLat },
    { path: '/body/destination', value: body.destination as LonLat },
    ...body.stations.flatMap((s, i) => [
      { path: `/body/stations/${i}/before`, value: s.before as LonLat | undefined },
      { path: `/body/stations/${i}/after`, value: s.after as LonLat | undefined },
    ]),
  ]);
}

/** At most `max` items spread evenly along the list, in their original order. */
export function evenSpread<T>(items: T[], max: number): T[] {
  if (items.length <= max) return items;
  return Array.from({ length: max }, (_, i) => items[Math.floor((i * items.length) / max)] as T);
}

/** Extra minutes from the engine's seconds: -1 below -60 s, 0 from -60 s to 0, else rounded to 0.1. */
export function detourMinutes(routedSeconds: number | null, baseSeconds: number): number {
  if (routedSeconds === null) return NO_RESULT;
  const extra = routedSeconds - baseSeconds;
  if (extra < WORST_NEGATIVE_SECONDS) return NO_RESULT;
  if (extra <= 0) return 0;
  return Math.round(extra / 6) / 10;
}

function legOf(station: DetourStation, body: DetourRequest): { points: LonLat[]; base: number } {
  const here: LonLat = [station.lon, station.lat];
  if (station.before && station.after && station.onRouteSec !== undefined) {
    return { points: [station.before as LonLat, here, station.after as LonLat], base: station.onRouteSec };
  }
  return { points: [body.origin as LonLat, here, body.destination as LonLat], base: body.routeDuration };
}

/**
 * Measures each station's detour, a few at a time, and hands each result to `emit` as it finishes. Once
 * `signal` aborts (the client left), no further station starts and calls in flight are abandoned.
 */
export async function measureDetours(
  deps: DetourDeps,
  body: DetourRequest,
  emit: (result: DetourResult) => void,
  signal: AbortSignal,
): Promise<DetourSummary> {
  const stations = evenSpread(body.stations, deps.routing.maxDetourStations);
  let next = 0;
  let started = 0;
  let finished = 0;
  const measure = async (station: DetourStation): Promise<number> => {
    if (!deps.engine.configured) return NO_RESULT;
    const { points, base } = legOf(station, body);
    try {
      await deps.inflight.acquire(signal);
    } catch {
      return NO_RESULT;
    }
    try {
      const seconds = await deps.engine.duration(points, { timeoutMs: deps.routing.detourTimeoutMs, signal });
      return detourMinutes(seconds, base);
    } finally {
      deps.inflight.release();
    }
  };
  const worker = async () => {
    while (!signal.aborted && next < stations.length) {
      const station = stations[next++] as DetourStation;
      started++;
      const detourMin = await measure(station);
      if (signal.aborted) return;
      finished++;
      emit({ id: station.id, detourMin });
    }
  };
  const workers = Math.min(deps.routing.detourConcurrency, stations.length);
  await Promise.all(Array.from({ length: workers }, worker));
  return {
    requested: body.stations.length,
    routed: stations.length,
    started,
    finished,
    dropped: stations.length - started,
  };
}
