import { type StationInput, stationKey } from './store';

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
