/**
 * A trip, step by step: the ends and stops found (typed coordinates, else the place search near the
 * view), the routes between them, the stations along a route within the corridor, and the detour each
 * costs, measured as a stream the reader can stop. Plain TypeScript over the generated client: the fast
 * tier runs the chain against a live server without a browser; use-planner.ts keeps it in the planner's
 * state. A step that fails throws a TripError in the words the planner shows.
 */
import {
  type DetourResult,
  type DetourStation,
  type FuelApi,
  type FuelCode,
  type GeocodeResult,
  type LonLat,
  parseTypedPoint,
  problem,
  type Route,
  readDetours,
  type Station,
} from '../api';
import { anchorsFor, measure } from '../geo';
import type { Bbox } from '../map/station-map';

/** The most stations whose detour one request measures. */
export const MAX_DETOUR_STATIONS = 150;

export class TripError extends Error {
  override name = 'TripError';
  constructor(
    message: string,
    readonly kind: 'error' | 'warning' = 'error',
  ) {
    super(message);
  }
}

/** A station along the route: how far along it, and, once measured, its detour in minutes. */
export interface PlannedStation {
  station: Station;
  km: number;
  detourMin?: number;
}

/** Places named `q`, the nearest the view's centre first; `error` says why there are none. */
export async function geocode(
  api: FuelApi,
  q: string,
  near: Bbox | null,
): Promise<{ places: GeocodeResult[]; error?: string }> {
  const query: { q: string; lat?: number; lon?: number } = { q };
  if (near) {
    query.lon = (near[0] + near[2]) / 2;
    query.lat = (near[1] + near[3]) / 2;
  }
  const result = await api.GET('/api/geocode', { params: { query } });
  if (result.response.status === 502)
    return { places: [], error: 'Place search failed: the geocoder did not answer.' };
  if (!result.data) return { places: [], error: `Place search failed (${problem(result)}).` };
  if (result.data.length === 0)
    return {
      places: [],
      error: `No place found for “${q}” (the place search may not be set up on this server).`,
    };
  return { places: result.data };
}

/** The point a typed end or stop stands for: coordinates as typed, else the first place found. */
export async function resolvePlace(
  api: FuelApi,
  text: string,
  what: string,
  near: Bbox | null,
): Promise<LonLat> {
  const typed = parseTypedPoint(text);
  if (typed) return typed;
  const found = await geocode(api, text, near);
  const first = found.places[0];
  if (!first) throw new TripError(found.error ?? `No place found for the ${what}.`);
  return first.coordinates;
}

export interface TripEnds {
  origin: LonLat;
  destination: LonLat;
}

/** The routes from `origin` to `destination` through the stops typed, the ends as found. */
export async function findRoutes(
  api: FuelApi,
  typed: { origin: string; destination: string; waypoints: readonly string[] },
  near: Bbox | null,
): Promise<{ routes: Route[]; ends: TripEnds }> {
  const origin = await resolvePlace(api, typed.origin, 'start', near);
  const destination = await resolvePlace(api, typed.destination, 'destination', near);
  const via = await Promise.all(
    typed.waypoints.filter((w) => w.trim()).map((w) => resolvePlace(api, w, 'waypoint', near)),
  );
  const result = await api.POST('/api/route', {
    body: { origin, destination, ...(via.length > 0 && { waypoints: via }) },
  });
  if (!result.data) {
    const reason = problem(result);
    throw new TripError(
      result.response.status === 502
        ? `No route: ${reason}. Routing may not be set up on this server, or no road connects these places.`
        : result.response.status === 429
          ? 'Too many route requests; wait a minute and try again.'
          : `No route (${reason}).`,
    );
  }
  return { routes: result.data.routes, ends: { origin, destination } };
}

/** The stations selling `fuel` within `corridorKm` of the route, each with how far along it. */
export async function stationsAlong(
  api: FuelApi,
  route: Route,
  fuel: FuelCode,
  corridorKm: number,
): Promise<PlannedStation[]> {
  const result = await api.POST('/api/route-stations', {
    body: { geometry: route.geometry, fuel, corridorKm },
  });
  if (!result.data) throw new TripError(`Stations along the route could not be found (${problem(result)}).`);
  return result.data.features.map((station) => ({
    station,
    km: (station.properties.routeFraction ?? 0) * route.distance,
  }));
}

/** Cheapest first (chargers, which have no price: in order along the route). */
export const byPrice = (a: PlannedStation, b: PlannedStation) =>
  (a.station.properties.price ?? 0) - (b.station.properties.price ?? 0) || a.km - b.km;

/**
 * The detour of the cheapest stations (at most MAX_DETOUR_STATIONS), each handed to `onDetour` as the
 * server's stream gives it. Stopping `signal` ends it quietly.
 */
export async function measureDetours(
  api: FuelApi,
  route: Route,
  planned: readonly PlannedStation[],
  ends: TripEnds | null,
  signal: AbortSignal,
  onDetour: (line: DetourResult) => void,
): Promise<void> {
  const path = {
    coordinates: route.geometry.coordinates,
    durations:
      route.geometry.coordinates.length === route.durations.length
        ? route.durations
        : route.geometry.coordinates.map(() => 0),
  };
  const measured = measure(path);
  const stations: DetourStation[] = [...planned]
    .sort(byPrice)
    .slice(0, MAX_DETOUR_STATIONS)
    .map(({ station }) => {
      const [lon = 0, lat = 0] = station.geometry.coordinates;
      return {
        id: station.properties.id,
        lon,
        lat,
        ...anchorsFor(
          { coordinates: route.geometry.coordinates, durations: route.durations },
          measured,
          station.properties.routeFraction ?? 0,
        ),
      };
    });
  const { origin, destination } = ends ?? {
    origin: route.geometry.coordinates[0] ?? [0, 0],
    destination: route.geometry.coordinates.at(-1) ?? [0, 0],
  };
  try {
    const result = await api.POST('/api/route-detour', {
      body: { stations, origin, destination, routeDuration: route.duration },
      parseAs: 'stream',
      signal,
    });
    if (!result.data) throw new TripError(`Detours could not be measured (${problem(result)}).`);
    await readDetours(result.data, (line) => {
      if (!signal.aborted) onDetour(line);
    });
  } catch (error) {
    if (signal.aborted) return;
    throw error instanceof TripError ? error : new TripError(`Detours stopped: ${String(error)}`);
  }
}

/** The cheapest station measured within `maxDetour` minutes, or undefined. */
export function bestWithin(
  planned: readonly PlannedStation[],
  maxDetour: number,
): PlannedStation | undefined {
  return planned
    .filter((p) => p.detourMin !== undefined && p.detourMin >= 0 && p.detourMin <= maxDetour)
    .sort((a, b) => (a.station.properties.price ?? 0) - (b.station.properties.price ?? 0))[0];
}
