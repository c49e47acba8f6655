import { sampleKey } from './sample-key';
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

/**
 * Stations in the order the stores keep them in: by sample key, which begins a station's number on SQLite
 * (migration 005) and its id on PostgreSQL (migration 003). Written in a feed's own order, a first import
 * on SQLite changed a page of the table per station, all over the file; in this order it appends. On
 * PostgreSQL the rows land in the table in id order, the order a crowded box reads them in (ORDER BY id):
 * 20,001 stations of a box were read from 1,881 pages instead of 22,851 (server time 32 → 16 ms;
 * scripts/bench/README.md, fuel decisions). Stations of one key keep their order, so the later listing of a
 * station still wins. Past 2,097,152 stations the feed's order is kept (the sort packs the position into
 * 21 bits).
 */
export function inSampleKeyOrder<T extends { country: string; externalId: string }>(stations: T[]): T[] {
  const place = 2 ** 21;
  if (stations.length >= place) return stations;
  const order = Float64Array.from(stations, (s, i) => sampleKey(s.country, s.externalId) * place + i).sort();
  return Array.from(order, (key) => stations[key % place] as T);
}

/** Consecutive slices of `size` items, each made when it is reached. */
export function* batchesOf<T>(items: T[], size: number): Generator<{ offset: number; items: T[] }> {
  const step = Math.max(1, Math.floor(size));
  for (let offset = 0; offset < items.length; offset += step) {
    yield { offset, items: items.slice(offset, offset + step) };
  }
}

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
