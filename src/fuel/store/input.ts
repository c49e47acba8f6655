import { type StationInput, stationKey } from './store';

export const DEFAULT_BATCH_SIZE = 500;

/** Stations with the same externalId + country collapse to the last one given. */
export function dedupeStations(stations: StationInput[]): StationInput[] {
  const byKey = new Map<string, StationInput>();
  for (const station of stations) byKey.set(stationKey(station.country, station.externalId), station);
  return [...byKey.values()];
}

export function batchesOf<T>(items: T[], size: number): { offset: number; items: T[] }[] {
  const step = Math.max(1, Math.floor(size));
  const out: { offset: number; items: T[] }[] = [];
  for (let offset = 0; offset < items.length; offset += step) {
    out.push({ offset, items: items.slice(offset, offset + step) });
  }
  return out;
}

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
