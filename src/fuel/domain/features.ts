import type { components } from '../../../generated/fuel/types';
import type { FuelCode } from '../config';
import { EV_FUEL, type StationRow } from '../store/store';

export type StationFeature = components['schemas']['StationFeature'];
export type StationFeatureCollection = components['schemas']['StationFeatureCollection'];

const round = (value: number, decimals: number) => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

export interface FeatureExtras {
  distanceKm?: number;
  routeFraction?: number;
}

/** A stored station as the GeoJSON Feature the three station endpoints return. */
export function stationFeature(row: StationRow, fuel: FuelCode, extras: FeatureExtras = {}): StationFeature {
  const ev = fuel === EV_FUEL;
  const properties: StationFeature['properties'] = {
    id: row.id,
    externalId: row.externalId,
    country: row.country,
    name: row.name,
    brand: row.brand,
    address: row.address,
    city: row.city,
    fuelType: fuel,
    // EV chargers carry EUR, which has no meaning there.
    currency: ev ? 'EUR' : (row.currency ?? 'EUR'),
  };
  if (!ev && row.price !== null) properties.price = row.price;
  if (!ev && row.reportedAt !== null) properties.reportedAt = row.reportedAt.toISOString();
  if (ev && row.powerKw !== null) properties.powerKw = row.powerKw;
  if (extras.distanceKm !== undefined) properties.distanceKm = round(extras.distanceKm, 3);
  if (extras.routeFraction !== undefined) properties.routeFraction = round(extras.routeFraction, 6);
  return { type: 'Feature', geometry: { type: 'Point', coordinates: [row.lon, row.lat] }, properties };
}

/**
 * The pieces of one FeatureCollection around a store's runs of Feature texts (FeatureTexts, each run about
 * 32 KB of Features joined with commas), written as they are.
 */
export function* featureTextCollection(runs: Iterable<string>): Generator<string> {
  let head = '{"type":"FeatureCollection","features":[';
  for (const run of runs) {
    yield head + run;
    head = ',';
  }
  yield head === ',' ? ']}' : `${head}]}`;
}

export function featureCollection(features: StationFeature[]): StationFeatureCollection {
  return { type: 'FeatureCollection', features };
}
