import { type StationInput, type StationJsonRow, stationKey } from './store';

export const DEFAULT_BATCH_SIZE = 500;

/**
 * Stations with the same externalId + country collapse to the last one given. Applied to each write batch
 * (a statement may not write one row twice); across batches the later write wins the same way, and no map
 * of a whole 1,000,000-station feed is built.
 */
export function dedupeStations(stations: StationInput[]): StationInput[] {
  const byKey = new Map<string, StationInput>();
  for (const station of stations) byKey.set(stationKey(station.country, station.externalId), station);
  return [...byKey.values()];
}

/** Consecutive slices of `size` items, each made when it is reached. */
export function* batchesOf<T>(items: T[], size: number): Generator<{ offset: number; items: T[] }> {
  const step = Math.max(1, Math.floor(size));
  for (let offset = 0; offset < items.length; offset += step) {
    yield { offset, items: items.slice(offset, offset + step) };
  }
}

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The columns both backends read for a station written as JSON, in this order: its own fields as one JSON
 * object, lon, lat, power, price, currency and the price's time in milliseconds.
 */
export type StationJsonColumns = [
  fieldsJson: string,
  lon: number,
  lat: number,
  powerKw: number | null,
  price: number | null,
  currency: string | null,
  reportedAt: number | null,
];

/** A row read in array mode whose StationJsonColumns start at `at`. */
export function stationJsonRow(row: readonly unknown[], at = 0): StationJsonRow {
  const [fieldsJson, lon, lat, powerKw, price, currency, reportedAt] = row.slice(
    at,
    at + 7,
  ) as StationJsonColumns;
  return { fieldsJson, lon, lat, powerKw, price, currency, reportedAt };
}
