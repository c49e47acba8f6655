/**
 * `GET /api/geocode`: places for a search text. A point written as text (`40.4168, -3.7038`, latitude
 * first as the upstream documents, or with hemisphere letters, degrees-minutes-seconds, decimal minutes:
 * coordinate-text.ts) is its own answer; otherwise the geocoder is asked when one is configured, and
 * without one the stations' own towns and addresses are searched, so a setup with no geocoder still finds
 * places to route between.
 */
import type { FuelConfig } from '../config';
import type { FuelStore } from '../store/store';
import { GEOCODE_LIMIT, type GeocodeResult, geocode } from '../upstreams/geocode';
import { coordinatesOf } from './coordinate-text';

export interface PlacesDeps {
  config: Pick<FuelConfig, 'geocoder'>;
  store: Pick<FuelStore, 'searchPlaces'>;
  fetchImpl: typeof fetch;
}

export async function findPlaces(
  { config, store, fetchImpl }: PlacesDeps,
  query: { q: string; lat?: number; lon?: number },
): Promise<GeocodeResult[]> {
  const point = coordinatesOf(query.q);
  if (point) return [{ name: query.q.trim(), city: null, state: null, country: null, coordinates: point }];
  if (config.geocoder.url) return geocode({ geocoder: config.geocoder, fetchImpl }, query);
  const text = query.q.trim();
  if (text.length < 2) return [];
  return (await store.searchPlaces(text, GEOCODE_LIMIT)).map((place) => ({
    name: place.address ?? place.city,
    city: place.city || null,
    state: null,
    country: place.country,
    coordinates: [place.lon, place.lat],
  }));
}
