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

export function featureCollection(features: StationFeature[]): StationFeatureCollection {
  return { type: 'FeatureCollection', features };
}

/**
 * The same Feature as `stationFeature`, written straight to JSON text: no intermediate object per station,
 * so a 20,000-feature answer can be sent in pieces as it is written (the parsed text equals the object).
 */
export function stationFeatureJson(row: StationRow, fuel: FuelCode, extras: FeatureExtras = {}): string {
  const ev = fuel === EV_FUEL;
  let text =
    `{"type":"Feature","geometry":{"type":"Point","coordinates":[${row.lon},${row.lat}]},"properties":{` +
    `"id":${JSON.stringify(row.id)},"externalId":${JSON.stringify(row.externalId)},` +
    `"country":${JSON.stringify(row.country)},"name":${JSON.stringify(row.name)},` +
    `"brand":${row.brand === null ? 'null' : JSON.stringify(row.brand)},` +
    `"address":${JSON.stringify(row.address)},"city":${JSON.stringify(row.city)},` +
    `"fuelType":"${fuel}","currency":${JSON.stringify(ev ? 'EUR' : (row.currency ?? 'EUR'))}`;
  if (!ev && row.price !== null) text += `,"price":${row.price}`;
  if (!ev && row.reportedAt !== null) text += `,"reportedAt":"${row.reportedAt.toISOString()}"`;
  if (ev && row.powerKw !== null) text += `,"powerKw":${row.powerKw}`;
  if (extras.distanceKm !== undefined) text += `,"distanceKm":${round(extras.distanceKm, 3)}`;
  if (extras.routeFraction !== undefined) text += `,"routeFraction":${round(extras.routeFraction, 6)}`;
  return `${text}}}`;
}

/** A FeatureCollection as pieces of JSON text, about `featuresPerPiece` features each. */
export function* featureCollectionJson(
  features: Iterable<string>,
  featuresPerPiece = 500,
): Generator<string> {
  let piece = '{"type":"FeatureCollection","features":[';
  let count = 0;
  for (const feature of features) {
    piece += count === 0 ? feature : `,${feature}`;
    count++;
    if (count % featuresPerPiece === 0) {
      yield piece;
      piece = '';
    }
  }
  yield `${piece}]}`;
}
