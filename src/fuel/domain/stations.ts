import type { Logger } from 'pino';
import type { FuelCode } from '../config';
import type { LonLat } from '../model/geometry';
import type { FuelStore } from '../store/store';
import { checkLatitudes, parseBbox } from './coordinates';
import {
  featureCollection,
  featureTextCollection,
  type StationFeatureCollection,
  stationFeature,
} from './features';

export const STATIONS_LIMIT = 20_000;
export const ROUTE_STATIONS_LIMIT = 5_000;
export const DEFAULT_CORRIDOR_KM = 5;
export const DEFAULT_NEAREST_LIMIT = 5;

export interface StationsDeps {
  store: FuelStore;
  log: Logger;
}

/** The box's stations as pieces of GeoJSON text, the Features as the store wrote them (featureTextCollection). */
export async function listStationsInBox(
  { store, log }: StationsDeps,
  query: { bbox: string; fuel: FuelCode },
): Promise<{ body: Iterable<string>; truncated: boolean }> {
  const bbox = parseBbox(query.bbox);
  const { runs, truncated } = await store.stationFeaturesInBox({
    bbox,
    fuel: query.fuel,
    limit: STATIONS_LIMIT,
  });
  if (truncated) log.warn(`[stations] result truncated at ${STATIONS_LIMIT}`);
  return { body: featureTextCollection(runs), truncated };
}

export async function nearestStations(
  { store }: StationsDeps,
  query: { lat: number; lon: number; radius_km: number; fuel: FuelCode; limit?: number },
): Promise<StationFeatureCollection> {
  const rows = await store.nearestStations({
    lon: query.lon,
    lat: query.lat,
    radiusKm: query.radius_km,
    fuel: query.fuel,
    limit: query.limit ?? DEFAULT_NEAREST_LIMIT,
  });
  return featureCollection(rows.map((r) => stationFeature(r, query.fuel, { distanceKm: r.distanceKm })));
}

export async function routeStations(
  { store, log }: StationsDeps,
  body: { geometry: { coordinates: number[][] }; fuel: FuelCode; corridorKm?: number },
): Promise<Iterable<string>> {
  const line = body.geometry.coordinates as LonLat[];
  checkLatitudes(line.map((value, i) => ({ path: `/body/geometry/coordinates/${i}`, value })));
  const { runs, truncated } = await store.stationFeaturesAlongLine({
    line,
    fuel: body.fuel,
    corridorKm: body.corridorKm ?? DEFAULT_CORRIDOR_KM,
    limit: ROUTE_STATIONS_LIMIT,
  });
  if (truncated) log.warn(`[route-stations] result hit LIMIT ${ROUTE_STATIONS_LIMIT} (may be truncated)`);
  return featureTextCollection(runs);
}
