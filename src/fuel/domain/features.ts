import type { components } from '../../../generated/fuel/types';
import type { FuelCode } from '../config';
import { EV_FUEL, type StationJsonRow, type StationRow } from '../store/store';

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

/** Each `reportedAt` of an answer is usually the same few instants: their ISO text, kept. */
const isoTexts = new Map<number, string>();
function isoText(ms: number): string {
  let text = isoTexts.get(ms);
  if (text === undefined) {
    if (isoTexts.size >= 1024) isoTexts.clear();
    text = new Date(ms).toISOString();
    isoTexts.set(ms, text);
  }
  return text;
}

/**
 * `stationFeature` written directly as JSON text, from a row whose own fields the store wrote as JSON
 * already: the same Feature once parsed (`features.test.ts` holds the two together on both backends).
 * Numbers are written as JSON.stringify writes them (`String` of a finite number).
 */
export function stationFeatureJson(
  row: StationJsonRow,
  fuel: FuelCode,
  extras: Pick<FeatureExtras, 'routeFraction'> = {},
): string {
  const ev = fuel === EV_FUEL;
  const fields = row.fieldsJson.slice(0, row.fieldsJson.lastIndexOf('}'));
  let extra = `,"fuelType":${JSON.stringify(fuel)},"currency":${ev || row.currency === null ? '"EUR"' : JSON.stringify(row.currency)}`;
  if (!ev && row.price !== null) extra += `,"price":${row.price}`;
  if (!ev && row.reportedAt !== null) extra += `,"reportedAt":"${isoText(row.reportedAt)}"`;
  if (ev && row.powerKw !== null) extra += `,"powerKw":${row.powerKw}`;
  if (extras.routeFraction !== undefined) extra += `,"routeFraction":${round(extras.routeFraction, 6)}`;
  return `{"type":"Feature","geometry":{"type":"Point","coordinates":[${row.lon},${row.lat}]},"properties":${fields}${extra}}}`;
}

/** Feature texts as the pieces of one FeatureCollection, `featuresPerPiece` features each. */
export function* featureTextCollection(
  features: Iterable<string>,
  featuresPerPiece = 500,
): Generator<string> {
  let head = '{"type":"FeatureCollection","features":[';
  let batch: string[] = [];
  for (const feature of features) {
    batch.push(feature);
    if (batch.length === featuresPerPiece) {
      yield head + batch.join(',');
      head = ',';
      batch = [];
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
