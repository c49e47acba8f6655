import type { components } from '../../../generated/fuel/types';
import type { RoutingConfig } from '../config';
import { bboxOf, cumulativeKm } from '../geo/sphere';
import { UpstreamFailure } from '../model/errors';
import type { LonLat } from '../model/geometry';
import type { EngineRoute, OsrmClient } from '../upstreams/osrm';
import { checkLatitudes } from './coordinates';

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
 * Seconds from the start at each coordinate, ending at the route's duration. The engine's per-segment
 * times are rounded to a tenth and may add up to less than the leg (2,701.6 s of a 2,774 s leg on a real
 * answer); each leg's difference is spread over its segments in proportion to their times. Without
 * usable segment times the route's time is spread along the line by distance.
 */
export function cumulativeDurations(route: EngineRoute): number[] {
  const legs = route.legDurations;
  if (legs && legs.reduce((n, leg) => n + leg.length, 0) === route.coordinates.length - 1) {
    const out = [0];
    legs.forEach((leg, i) => {
      const sum = leg.reduce((total, seconds) => total + Math.max(0, seconds), 0);
      const own = route.legTotals?.[i];
      const scale = own !== undefined && sum > 0 ? own / sum : 1;
      for (const seconds of leg) out.push((out.at(-1) ?? 0) + Math.max(0, seconds) * scale);
    });
    const total = out.at(-1) ?? 0;
    // What remains (legs without a time of their own, rounding) goes the same way over the whole route.
    return total > 0 ? out.map((t) => (t / total) * route.duration) : out;
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
    distance: Math.round(route.distance) / 1000,
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
