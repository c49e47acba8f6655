import type { components } from '../../../generated/fuel/types';
import type { RoutingConfig } from '../config';
import { bboxOf, cumulativeKm } from '../geo/sphere';
import type { LonLat } from '../store/store';
import type { EngineRoute, OsrmClient } from '../upstreams/osrm';
import { checkLatitudes } from './coordinates';
import { UpstreamFailure } from './errors';

export type RouteRequest = components['schemas']['RouteRequest'];
export type RouteResponse = components['schemas']['RouteResponse'];
export type Route = components['schemas']['Route'];

export const MAX_ROUTE_POINTS = 2_000;
export const ROUTE_UNAVAILABLE = 'Routing service unavailable';
export const ROUTE_FAILED = 'Route calculation failed';

/** Indices of at most `max` points spread evenly over `length`, always the first and the last. */
export function thinIndices(length: number, max: number): number[] {
  if (length <= max) return Array.from({ length }, (_, i) => i);
  return Array.from({ length: max }, (_, i) => Math.round((i * (length - 1)) / (max - 1)));
}

/**
 * Seconds from the start at each coordinate: the running sum of the engine's per-segment durations when
 * they fit the line, otherwise the route's time spread along the line by distance.
 */
export function cumulativeDurations(route: EngineRoute): number[] {
  const segments = route.legDurations?.flat();
  if (segments && segments.length === route.coordinates.length - 1) {
    const out = [0];
    for (const seconds of segments) out.push((out.at(-1) ?? 0) + Math.max(0, seconds));
    return out;
  }
  const cum = cumulativeKm(route.coordinates);
  const total = cum.at(-1) ?? 0;
  return cum.map((km) => (total > 0 ? (km / total) * route.duration : 0));
}

const tenth = (value: number) => Math.round(value * 10) / 10;

export function toRoute(route: EngineRoute): Route {
  const durations = cumulativeDurations(route);
  const keep = thinIndices(route.coordinates.length, MAX_ROUTE_POINTS);
  return {
    geometry: { type: 'LineString', coordinates: keep.map((i) => route.coordinates[i] as LonLat) },
    distance: route.distance / 1000,
    duration: route.duration,
    bbox: bboxOf(route.coordinates),
    durations: keep.map((i) => tenth(durations[i] ?? 0)),
  };
}

export async function planRoute(
  { engine, routing }: { engine: OsrmClient; routing: RoutingConfig },
  body: RouteRequest,
): Promise<RouteResponse> {
  const waypoints = body.waypoints ?? [];
  checkLatitudes([
    { path: '/body/origin', value: body.origin as LonLat },
    { path: '/body/destination', value: body.destination as LonLat },
    ...waypoints.map((value, i) => ({ path: `/body/waypoints/${i}`, value: value as LonLat })),
  ]);
  const points = [body.origin, ...waypoints, body.destination] as LonLat[];
  const direct = waypoints.length === 0;
  const outcome = await engine
    .route(points, {
      alternatives: direct ? 2 : 0,
      timeoutMs: direct ? routing.routeTimeoutMs : routing.waypointRouteTimeoutMs,
    })
    .catch((error: unknown) => {
      throw new UpstreamFailure(ROUTE_FAILED, { cause: error });
    });
  if (outcome.kind === 'unavailable') throw new UpstreamFailure(ROUTE_UNAVAILABLE, { cause: outcome.reason });
  return { routes: outcome.routes.slice(0, direct ? 3 : 1).map(toRoute) };
}
