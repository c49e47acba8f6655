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
 * Feature texts as the pieces of one FeatureCollection, each about `charsPerPiece` characters. A piece
 * stays well under the size at which V8 puts a string in its large-object space, where each is mapped
 * afresh: pieces of 500 features (about 140 KB) made writing a 20,000-feature answer 17 times slower than
 * pieces of 100 on a machine with costly page faults (scripts/bench/README.md, "eighth pass").
 */
export function* featureTextCollection(
  features: Iterable<string>,
  charsPerPiece = 32_768,
): Generator<string> {
  let head = '{"type":"FeatureCollection","features":[';
  let batch: string[] = [];
  let chars = 0;
  for (const feature of features) {
    batch.push(feature);
    chars += feature.length + 1;
    if (chars >= charsPerPiece) {
      yield head + batch.join(',');
      head = ',';
      batch = [];
      chars = 0;
    }
  }
  if (batch.length > 0) {
    yield head + batch.join(',');
    head = ',';
  }
  yield head === ',' ? ']}' : `${head}]}`;
}

export function featureCollection(features: StationFeature[]): StationFeatureCollection {
  return { type: 'FeatureCollection', features };
}
