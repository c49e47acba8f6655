/**
 * The corridor search both backends share: the spatial index gives candidates inside small boxes along the
 * line, their distance to the line on the sphere is measured here, and only the stations that pass are read
 * with their latest price, in order along the line, until the limit is reached.
 */
import { corridorChunks, nearestOnLineAt, prepareLine } from '../geo';
import {
  type BBox,
  byRouteOrder,
  type CorridorQuery,
  type CorridorResult,
  type CorridorRow,
  type StationRow,
} from './store';

/** A candidate: the backend's key of the station, its position, and the chunk whose box held it. */
export type Candidate<K> = [key: K, lon: number, lat: number, chunk: number];

export interface CorridorSource<K> {
  /** Stations inside any of the boxes (a station may come once per box); EV selection applied if asked. */
  candidates(pieces: { chunk: number; box: BBox }[]): Promise<Iterable<Candidate<K>>>;
  /** The stations among `keys` that the fuel selects, with their latest price. */
  rows(keys: K[]): Promise<Map<K, StationRow>>;
}

/** Index coordinates may be rounded (float32 in the SQLite R*Tree); the exact check settles the edge. */
const SLACK_KM = 0.01;
const DETAIL_BATCH = 1000;

export async function searchCorridor<K>(
  source: CorridorSource<K>,
  { line, corridorKm, limit }: CorridorQuery,
): Promise<CorridorResult> {
  const prepared = prepareLine(line);
  const totalKm = prepared.cum.at(-1) ?? 0;
  const chunks = corridorChunks(line, corridorKm);
  const pieces = chunks.flatMap((chunk, index) => chunk.boxes.map((box) => ({ chunk: index, box })));
  const best = new Map<K, { alongKm: number; distanceKm: number; chunk: number }>();
  for (const [key, lon, lat, index] of await source.candidates(pieces)) {
    const chunk = chunks[index];
    if (!chunk) continue;
    const hit = nearestOnLineAt(prepared, lon, lat, chunk.first, chunk.last);
    if (hit.distanceKm > corridorKm + SLACK_KM) continue;
    const known = best.get(key);
    if (!known) best.set(key, { alongKm: hit.alongKm, distanceKm: hit.distanceKm, chunk: index });
    else if (hit.distanceKm < known.distanceKm) {
      known.alongKm = hit.alongKm;
      known.distanceKm = hit.distanceKm;
      known.chunk = index;
    }
  }
  const ordered = [...best.entries()].sort((a, b) => a[1].alongKm - b[1].alongKm);
  const stations: CorridorRow[] = [];
  for (let at = 0; at < ordered.length && stations.length <= limit; at += DETAIL_BATCH) {
    const batch = ordered.slice(at, at + DETAIL_BATCH);
    const rows = await source.rows(batch.map(([key]) => key));
    for (const [key, hit] of batch) {
      const row = rows.get(key);
      const chunk = chunks[hit.chunk];
      if (!row || !chunk) continue;
      const exact = nearestOnLineAt(prepared, row.lon, row.lat, chunk.first, chunk.last);
      if (exact.distanceKm > corridorKm) continue;
      const routeFraction = totalKm > 0 ? Math.min(1, Math.max(0, exact.alongKm / totalKm)) : 0;
      stations.push({ ...row, routeFraction });
    }
  }
  return { stations: stations.sort(byRouteOrder).slice(0, limit), truncated: stations.length > limit };
}
