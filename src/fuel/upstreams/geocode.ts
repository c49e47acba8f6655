/** Place search through a Photon geocoder (`GET {url}/api?q=…&limit=5[&lat=…&lon=…]`). */
import type { components } from '../../../generated/fuel/types';
import type { GeocoderConfig } from '../config';
import { UpstreamFailure } from '../model/errors';

export type GeocodeResult = components['schemas']['GeocodeResult'];

export const GEOCODE_LIMIT = 5;
export const GEOCODING_FAILED = 'Geocoding failed';

interface PhotonFeature {
  geometry?: { coordinates?: unknown };
  properties?: Record<string, unknown>;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function toResult(feature: PhotonFeature, query: string): GeocodeResult | undefined {
  const c = feature?.geometry?.coordinates;
  if (!Array.isArray(c) || c.length < 2) return undefined;
  const [lon, lat] = c;
  const valid =
    typeof lon === 'number' &&
    typeof lat === 'number' &&
    Number.isFinite(lon) &&
    Number.isFinite(lat) &&
    Math.abs(lon) <= 180 &&
    Math.abs(lat) <= 90;
  if (!valid) return undefined;
  const p = feature.properties ?? {};
  return {
    name: text(p.name) ?? query,
    city: text(p.city),
    state: text(p.state),
    country: text(p.country),
    coordinates: [lon, lat],
  };
}

/**
 * Up to 5 places. `[]` without a geocoder, on an error status or a body that is not JSON; UpstreamFailure
 * only when the connection fails or the answer takes longer than the timeout.
 */
export async function geocode(
  { geocoder, fetchImpl = fetch }: { geocoder: GeocoderConfig; fetchImpl?: typeof fetch },
  query: { q: string; lat?: number; lon?: number },
): Promise<GeocodeResult[]> {
  if (!geocoder.url) return [];
  const params = new URLSearchParams({ q: query.q, limit: String(GEOCODE_LIMIT) });
  if (query.lat !== undefined && query.lon !== undefined) {
    params.set('lat', String(query.lat));
    params.set('lon', String(query.lon));
  }
  let body: string;
  try {
    const res = await fetchImpl(`${geocoder.url}/api?${params}`, {
      signal: AbortSignal.timeout(geocoder.timeoutMs),
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      return [];
    }
    body = await res.text();
  } catch (error) {
    throw new UpstreamFailure(GEOCODING_FAILED, { cause: error });
  }
  let parsed: { features?: unknown };
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const features = Array.isArray(parsed?.features) ? (parsed.features as PhotonFeature[]) : [];
  return features.flatMap((f) => toResult(f, query.q) ?? []).slice(0, GEOCODE_LIMIT);
}
