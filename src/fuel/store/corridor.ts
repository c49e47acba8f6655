/**
 * The corridor search both backends share: the stations' positions in memory (positions.ts) give the
 * candidates inside small boxes along the line, their distance to the line on the sphere is measured here,
 * and only the stations that pass are read with their latest price, in order along the line, until the
 * limit is reached.
 *
 * The chunks are searched in order along the line, a few per round, so a search that fills its limit early
 * never reads the rest of a long line. A station is measured once, when first seen, against every chunk
 * from that round on whose box holds it (a grid of cells finds those boxes): the same measurements, in the
 * same order, as one candidate per box would get. A station not seen yet lies at or after the start of the
 * next round's first chunk, so the stations measured to lie before it are final in the order and can be
 * read.
 */
import { corridorChunks } from '../geo/boxes';
import { type Nearest, nearestOnLineAt, prepareLine } from '../geo/line';
import type { StationPositions } from './positions';
import { type BBox, byRouteOrder, type CorridorQuery, type StationRow } from './store';

/** What the search needs of a station it reads: its place, and its identity to order ties. */
export interface Placed {
  lon: number;
  lat: number;
  country: string;
  externalId: string;
}

export interface CorridorSource<R extends Placed = StationRow> {
  /** Every station's position: the search's candidates, named by their place in it. */
  positions: StationPositions<unknown>;
  /** The stations at these places that the fuel selects, with their latest price, by place. */
  rows(places: number[]): Promise<Map<number, R>>;
}

/** A station read may have moved a little since the positions were read; it is measured again then. */
const SLACK_KM = 0.01;
const DETAIL_BATCH = 1000;
/** Stations read beyond the estimate of those it takes to pass the limit, so that one more call is rare. */
const READ_MARGIN = 16;
/**
 * The share of the stations read that a search expects the fuel to keep before any read has been answered.
 * PostgreSQL answered the five batches asked for at once by a 5,000-station search after 55–80 ms, and a
 * sixth asked for only then (the share read from their answers) 10–12 ms later; counted at this share, the
 * five leave room for the sixth at once (scripts/bench/README.md, fuel decisions). Most stations sell the
 * usual fuels; a fuel fewer sell is read in more batches once the first answers tell.
 */
const FIRST_SHARE = 0.9;
/**
 * Chunks searched per round, after which the settled stations are read, and the line's segments per chunk:
 * a round searched past the limit's place is measured for nothing. At 10,000,000 stations over Europe a
 * city's stretch of the line fills the limit within a few kilometres; one chunk of 16 segments a round
 * (about 8 km of the benchmark's line) took its search from 120-124 to 76-77 ms, and from 57-60 to
 * 46-51 ms at 1,000,000, where four chunks of 32 had been measured when the candidates were still probes of
 * the spatial index (scripts/bench/README.md, fuel decisions).
 */
const CHUNKS_PER_ROUND = 1;
const SEGMENTS_PER_CHUNK = 16;

interface Hit {
  place: number;
  alongKm: number;
  chunk: number;
}

/**
 * The boxes of every chunk as one flat array (minLon, minLat, maxLon, maxLat per box) with each box's chunk,
 * a hair wider than the boxes searched: measuring a station against one chunk too many only makes its
 * nearest point more exact.
 */
const EDGE_DEG = 1e-5;

/** Grid cells, in degrees, that say which boxes may hold a point without testing them all. */
const CELL_DEG = 0.25;
/** A box over more cells than this (a very wide corridor, near a pole) is tested for every point instead. */
const MAX_CELLS = 4096;

interface FlatBoxes {
  edges: Float64Array;
  owner: Int32Array;
  /** Per grid cell, the boxes over it in order; null when some box is tested everywhere (see MAX_CELLS). */
  cells: Map<number, number[]> | null;
}

const NO_BOXES: number[] = [];

const cellOf = (lon: number, lat: number) =>
  Math.floor((lon + 180) / CELL_DEG) * 1024 + Math.floor((lat + 90) / CELL_DEG);

function flatBoxes(chunks: { boxes: BBox[] }[]): FlatBoxes {
  const count = chunks.reduce((sum, chunk) => sum + chunk.boxes.length, 0);
  const edges = new Float64Array(count * 4);
  const owner = new Int32Array(count);
  let cells: Map<number, number[]> | null = new Map();
  let at = 0;
  chunks.forEach((chunk, index) => {
    for (const [minLon, minLat, maxLon, maxLat] of chunk.boxes) {
      const box: BBox = [minLon - EDGE_DEG, minLat - EDGE_DEG, maxLon + EDGE_DEG, maxLat + EDGE_DEG];
      edges.set(box, at * 4);
      owner[at] = index;
      const x0 = Math.floor((box[0] + 180) / CELL_DEG);
      const x1 = Math.floor((box[2] + 180) / CELL_DEG);
      const y0 = Math.floor((box[1] + 90) / CELL_DEG);
      const y1 = Math.floor((box[3] + 90) / CELL_DEG);
      if ((x1 - x0 + 1) * (y1 - y0 + 1) > MAX_CELLS) cells = null;
      for (let x = x0; cells && x <= x1; x++) {
        for (let y = y0; y <= y1; y++) {
          const key = x * 1024 + y;
          const list = cells.get(key);
          if (list) list.push(at);
          else cells.set(key, [at]);
        }
      }
      at++;
    }
  });
  return { edges, owner, cells };
}

export async function searchCorridor<R extends Placed = StationRow>(
  { positions, rows }: CorridorSource<R>,
  { line, corridorKm, limit }: CorridorQuery,
): Promise<{ stations: (R & { routeFraction: number })[]; truncated: boolean }> {
  const prepared = prepareLine(line, corridorKm + SLACK_KM);
  const totalKm = prepared.cum.at(-1) ?? 0;
  const chunks = corridorChunks(line, corridorKm, SEGMENTS_PER_CHUNK);
  const { edges, owner, cells } = flatBoxes(chunks);
  const allBoxes = Array.from(owner, (_, box) => box);
  /** Every station seen, measured or not, by place: a station is measured once, when first seen. */
  const seen = new Uint8Array(positions.size);
  /** Stations in the corridor whose place along the line is not yet known to come before the next round. */
  let open: Hit[] = [];
  /** The settled prefix of the order along the line; `fetched` of them have been read. */
  const ordered: Hit[] = [];
  let fetched = 0;
  const stations: (R & { routeFraction: number })[] = [];

  const scratch: Nearest = { distanceKm: 0, alongKm: 0 };
  /** The station being measured: its nearest point so far, and the chunk that holds it. */
  const best = { alongKm: 0, distanceKm: Infinity, chunk: -1 };
  const measure = (lon: number, lat: number, index: number) => {
    const chunk = chunks[index];
    if (!chunk) return;
    const found = nearestOnLineAt(prepared, lon, lat, chunk.first, chunk.last, scratch);
    if (found.distanceKm > corridorKm + SLACK_KM || found.distanceKm >= best.distanceKm) return;
    best.alongKm = found.alongKm;
    best.distanceKm = found.distanceKm;
    best.chunk = index;
  };

  /** Keys of the reads answered, and of those asked for and not yet answered. */
  let readKeys = 0;
  let inFlight = 0;
  const pending = new Set<Promise<void>>();
  const read = async (batch: Hit[]) => {
    let found: Map<number, R>;
    try {
      found = await rows(batch.map((hit) => hit.place));
    } finally {
      inFlight -= batch.length;
      readKeys += batch.length;
    }
    for (const hit of batch) {
      const row = found.get(hit.place) as (R & { routeFraction: number }) | undefined;
      const chunk = chunks[hit.chunk];
      if (!row || !chunk) continue;
      // The row's own position: the station may have moved since the positions were read.
      const exact = nearestOnLineAt(prepared, row.lon, row.lat, chunk.first, chunk.last, scratch);
      if (exact.distanceKm > corridorKm) continue;
      row.routeFraction = totalKm > 0 ? Math.min(1, Math.max(0, exact.alongKm / totalKm)) : 0;
      stations.push(row);
    }
  };
  /** Asks for a batch without waiting for it: the search goes on while PostgreSQL answers. */
  const ask = (batch: Hit[]) => {
    inFlight += batch.length;
    const asked: Promise<void> = read(batch).finally(() => pending.delete(asked));
    pending.add(asked);
    // Handled here, reported by `answered`: a read may fail while the search is still measuring.
    asked.catch(() => undefined);
  };
  /** Waits for every read asked for; the first failure is thrown once all have ended. */
  const answered = async () => {
    const failed = (await Promise.allSettled([...pending])).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
  /**
   * Reads the settled stations in order, in batches of at most DETAIL_BATCH, only whole batches until the
   * whole line is searched: as many as the share of the stations read that the fuel kept says it takes to
   * pass the limit (reading 6,000 stations to keep 5,001 cost a tenth of the search), counting the reads
   * under way at that share. Before any read is answered the share is a guess (FIRST_SHARE), so that on
   * PostgreSQL the last batch is asked for with the others rather than after them. When the reads under
   * way should pass the limit, they are waited for first.
   */
  const readSettled = async (done: boolean) => {
    for (;;) {
      const waiting = ordered.length - fetched;
      const ready = done ? waiting : waiting - (waiting % DETAIL_BATCH);
      if (ready === 0 || stations.length > limit) return;
      const share = readKeys === 0 ? FIRST_SHARE : stations.length / readKeys;
      const wanted = limit + 1 - stations.length - Math.floor(inFlight * share);
      if (wanted <= 0) {
        await answered();
        continue;
      }
      // Every station read so far kept: no margin, the next read may well be the last. None kept: as many
      // as may be read at once.
      const needed = share >= 1 ? wanted : Math.ceil(wanted / share) + READ_MARGIN;
      const batch = ordered.slice(fetched, fetched + Math.min(needed, ready, DETAIL_BATCH));
      fetched += batch.length;
      ask(batch);
    }
  };

  let firstBox = 0;
  try {
    for (let from = 0; from < chunks.length && stations.length <= limit; from += CHUNKS_PER_ROUND) {
      const to = Math.min(from + CHUNKS_PER_ROUND, chunks.length);
      while (firstBox < owner.length && (owner[firstBox] as number) < from) firstBox++;
      for (let own = from; own < to; own++) {
        for (const box of chunks[own]?.boxes ?? []) {
          for (const place of positions.inBox(box)) {
            if (seen[place]) continue;
            seen[place] = 1;
            const lon = positions.lonAt(place);
            const lat = positions.latAt(place);
            // Measured against every chunk from this round on whose box holds it, in order along the line:
            // the same measurements, in the same order, as one candidate per box would get, so the result is
            // final.
            best.distanceKm = Infinity;
            best.chunk = -1;
            let last = -1;
            for (const flat of cells ? (cells.get(cellOf(lon, lat)) ?? NO_BOXES) : allBoxes) {
              if (flat < firstBox) continue;
              const index = owner[flat] as number;
              if (index === last) continue;
              const e = flat * 4;
              const inside =
                lon >= (edges[e] as number) &&
                lon <= (edges[e + 2] as number) &&
                lat >= (edges[e + 1] as number) &&
                lat <= (edges[e + 3] as number);
              if (!inside && index !== own) continue;
              measure(lon, lat, index);
              last = index;
            }
            if (best.chunk >= 0) open.push({ place, alongKm: best.alongKm, chunk: best.chunk });
          }
        }
      }
      // A station not seen yet lies at or after the start of the next chunk: the stations before it are final.
      const frontier = to < chunks.length ? (prepared.cum[chunks[to]?.first ?? 0] ?? totalKm) : Infinity;
      const settled: Hit[] = [];
      const still: Hit[] = [];
      for (const hit of open) (hit.alongKm < frontier ? settled : still).push(hit);
      open = still;
      settled.sort((a, b) => a.alongKm - b.alongKm);
      for (const hit of settled) ordered.push(hit);
      await readSettled(to >= chunks.length);
    }
    await answered();
    // The last reads may have left the limit unreached with stations still to read.
    while (fetched < ordered.length && stations.length <= limit) {
      await readSettled(true);
      await answered();
    }
    // Cut: the stations not read that lie at the same place along the line as the last one read (before the
    // start, past the end, at one spot) may come first by their identity, which only their rows give.
    if (stations.length > limit && fetched > 0) {
      const cutKm = ordered[fetched - 1]?.alongKm;
      let end = fetched;
      while (end < ordered.length && ordered[end]?.alongKm === cutKm) end++;
      for (let at = fetched; at < end; at += DETAIL_BATCH)
        ask(ordered.slice(at, Math.min(end, at + DETAIL_BATCH)));
      fetched = end;
      await answered();
    }
  } finally {
    // Never leave a query running: a failed search waits for the reads it asked for.
    await Promise.allSettled([...pending]);
  }
  return { stations: stations.sort(byRouteOrder).slice(0, limit), truncated: stations.length > limit };
}
