/**
 * A client of an OSRM-compatible routing engine (`/route/v1/driving/{lon,lat;…}`). It knows the engine's
 * wire format and nothing of this API's answers.
 */
import { timeLimit } from '../../common/time-limit';
import type { LonLat } from '../model/geometry';

export interface EngineRoute {
  /** Metres. */
  distance: number;
  /** Seconds. */
  duration: number;
  coordinates: LonLat[];
  /** Seconds between consecutive coordinates of each leg (`annotation.duration`), when given. */
  legDurations: number[][] | undefined;
  /** Each leg's own seconds, which its per-segment times do not always add up to. */
  legTotals: number[] | undefined;
}

export type RouteOutcome =
  | { kind: 'routes'; routes: EngineRoute[] }
  | { kind: 'unavailable'; reason: string };

interface WireRoute {
  distance?: unknown;
  duration?: unknown;
  geometry?: { coordinates?: unknown } | string;
  legs?: { duration?: unknown; annotation?: { duration?: unknown } }[];
}

/** An encoded polyline (precision 5, the engine's default `geometries=polyline`) → `[lon, lat]` pairs. */
export function decodePolyline(text: string, precision = 5): LonLat[] {
  const factor = 10 ** precision;
  const points: LonLat[] = [];
  let index = 0;
  let lat = 0;
  let lon = 0;
  const next = () => {
    let result = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = text.charCodeAt(index++) - 63;
      result |= (byte & 0x1f) << shift;
      shift += 5;
    } while (byte >= 0x20 && index < text.length);
    return result & 1 ? ~(result >> 1) : result >> 1;
  };
  while (index < text.length) {
    lat += next();
    lon += next();
    points.push([lon / factor, lat / factor]);
  }
  return points;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isPair = (v: unknown): v is LonLat =>
  Array.isArray(v) && v.length >= 2 && isNumber(v[0]) && isNumber(v[1]);

export function readRoute(wire: WireRoute): EngineRoute | undefined {
  const coordinates =
    typeof wire.geometry === 'string' ? decodePolyline(wire.geometry) : wire.geometry?.coordinates;
  if (!isNumber(wire.distance) || !isNumber(wire.duration) || !Array.isArray(coordinates)) return undefined;
  if (coordinates.length < 2 || !coordinates.every(isPair)) return undefined;
  const legs = Array.isArray(wire.legs) ? wire.legs : [];
  const legDurations = legs.map((leg) => leg?.annotation?.duration);
  const annotated = legs.length > 0 && legDurations.every((d) => Array.isArray(d) && d.every(isNumber));
  const legTotals = legs.map((leg) => leg?.duration);
  return {
    distance: wire.distance,
    duration: wire.duration,
    coordinates: coordinates.map((c: LonLat) => [c[0], c[1]] as LonLat),
    legDurations: annotated ? (legDurations as number[][]) : undefined,
    legTotals: legTotals.length > 0 && legTotals.every(isNumber) ? legTotals : undefined,
  };
}

export class OsrmClient {
  constructor(
    private readonly baseUrl: string | undefined,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  get configured(): boolean {
    return this.baseUrl !== undefined;
  }

  private url(points: LonLat[], options: Record<string, string>): string {
    const path = points.map(([lon, lat]) => `${lon},${lat}`).join(';');
    return `${this.baseUrl}/route/v1/driving/${path}?${new URLSearchParams(options)}`;
  }

  /**
   * Routes through the points. `unavailable` when no engine is configured, it answers an error status or
   * finds no route; throws when the call itself fails (connection, timeout, a body that is not JSON).
   */
  async route(points: LonLat[], options: { alternatives: number; timeoutMs: number }): Promise<RouteOutcome> {
    if (!this.baseUrl) return { kind: 'unavailable', reason: 'no routing address configured' };
    const url = this.url(points, {
      alternatives: options.alternatives > 0 ? String(options.alternatives) : 'false',
      steps: 'false',
      overview: 'full',
      geometries: 'geojson',
      annotations: 'duration',
    });
    const signal = AbortSignal.timeout(options.timeoutMs);
    const res = await this.fetchImpl(url, { signal });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      return { kind: 'unavailable', reason: `engine answered ${res.status}` };
    }
    const body = JSON.parse(await res.text()) as { code?: unknown; routes?: unknown };
    if (body?.code !== 'Ok' || !Array.isArray(body.routes)) {
      return { kind: 'unavailable', reason: `engine code ${String(body?.code)}` };
    }
    const routes = body.routes.flatMap((r: WireRoute) => readRoute(r) ?? []);
    if (routes.length === 0) return { kind: 'unavailable', reason: 'engine returned no route' };
    return { kind: 'routes', routes };
  }

  /** Seconds of the best route through the points; null for every kind of failure. */
  async duration(
    points: LonLat[],
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<number | null> {
    if (!this.baseUrl) return null;
    const signal = timeLimit(options.timeoutMs, options.signal);
    try {
      const res = await this.fetchImpl(
        this.url(points, { alternatives: 'false', steps: 'false', overview: 'false' }),
        { signal },
      );
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        return null;
      }
      const body = JSON.parse(await res.text()) as { code?: unknown; routes?: { duration?: unknown }[] };
      const duration = body?.code === 'Ok' ? body.routes?.[0]?.duration : undefined;
      return isNumber(duration) ? duration : null;
    } catch {
      return null;
    }
  }
}
