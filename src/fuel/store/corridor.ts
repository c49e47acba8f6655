/**
 * The corridor search both backends share: the spatial index gives candidates inside small boxes along the
 * line, their distance to the line on the sphere is measured here, and only the stations that pass are read
 * with their latest price, in order along the line, until the limit is reached.
 *
 * The chunks are searched in order along the line, a few per round, so a search that fills its limit early
 * never reads the rest of a long line. A station is measured once, when first seen, against every chunk
 * from that round on whose box holds it (a grid of cells finds those boxes): the same measurements, in the
 * same order, as one candidate per box would get. A station not seen yet lies at or after the start of the
 * next round's first chunk, so the stations measured to lie before it are final in the order and can be
 * read. Each box also leaves out what the box before it returned, so overlaps are read once.
 */
import { corridorChunks } from '../geo/boxes';
import { type Nearest, nearestOnLineAt, prepareLine } from '../geo/line';
import { type BBox, byRouteOrder, type CorridorQuery, type StationRow } from './store';

/** What the search needs of a station it reads: its place, and its identity to order ties. */
export interface Placed {
  lon: number;
  lat: number;
  country: string;
  externalId: string;
}

/** A candidate: the backend's key of the station, its position, and the chunk whose box held it. */
export type Candidate<K> = [key: K, lon: number, lat: number, chunk: number];

/**
 * One box to search for a chunk. `skip` is the box of the chunk before, already searched: the stations
 * inside it may be left out (they have been seen), which spares reading the overlap twice.
 */
export interface CorridorPiece {
  chunk: number;
  box: BBox;
  skip?: BBox;
}

export interface CorridorSource<K, R extends Placed = StationRow> {
  /**
   * Stations inside any of the boxes (a station may come once per box), in any order; EV selection applied
   * if asked.
   */
  candidates(pieces: CorridorPiece[]): Promise<Iterable<Candidate<K>>>;
  /** The stations among `keys` that the fuel selects, with their latest price. */
  rows(keys: K[]): Promise<Map<K, R>>;
  /**
   * The backend answers several queries side by side (PostgreSQL's pool): the next round's candidates are
   * then asked for before this round's stations are read. A backend that answers one query at a time
   * (SQLite, in process) would only do the next round early, and for nothing when the limit is reached.
   */
  concurrent?: boolean;
}

/** Index coordinates may be rounded (float32 in the SQLite R*Tree); the exact check settles the edge. */
const SLACK_KM = 0.01;
const DETAIL_BATCH = 1000;
/** Chunks searched per round: few enough to stop early, enough to keep PostgreSQL's round trips down. */
const CHUNKS_PER_ROUND = 4;

interface Hit<K> {
  key: K;
  lon: number;
  lat: number;
  alongKm: number;
  distanceKm: number;
  chunk: number;
}

/**
 * The boxes of every chunk as one flat array (minLon, minLat, maxLon, maxLat per box) with each box's chunk,
 * a hair wider than the index's own test (PostGIS compares float32 boxes): measuring a station against one
 * chunk too many only makes its nearest point more exact.
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

export async function searchCorridor<K, R extends Placed = StationRow>(
  source: CorridorSource<K, R>,
  { line, corridorKm, limit }: CorridorQuery,
): Promise<{ stations: (R & { routeFraction: number })[]; truncated: boolean }> {
  const prepared = prepareLine(line, corridorKm + SLACK_KM);
  const totalKm = prepared.cum.at(-1) ?? 0;
  const chunks = corridorChunks(line, corridorKm);
  const { edges, owner, cells } = flatBoxes(chunks);
  const allBoxes = Array.from(owner, (_, box) => box);
  /** Every station seen, measured or not: a station is measured once, when first seen. */
  const seen = new Set<K>();
  /** Stations in the corridor whose place along the line is not yet known to come before the next round. */
  let open: Hit<K>[] = [];
  /** The settled prefix of the order along the line; `fetched` of them have been read. */
  const ordered: Hit<K>[] = [];
  let fetched = 0;
  const stations: (R & { routeFraction: number })[] = [];

  const scratch: Nearest = { distanceKm: 0, alongKm: 0 };
  const measure = (hit: Hit<K>, index: number) => {
    const chunk = chunks[index];
    if (!chunk) return;
    const found = nearestOnLineAt(prepared, hit.lon, hit.lat, chunk.first, chunk.last, scratch);
    if (found.distanceKm > corridorKm + SLACK_KM || found.distanceKm >= hit.distanceKm) return;
    hit.alongKm = found.alongKm;
    hit.distanceKm = found.distanceKm;
    hit.chunk = index;
  };

  const read = async (batch: Hit<K>[]) => {
    // In pieces of DETAIL_BATCH asked for at once: PostgreSQL answers them on as many connections.
    const pieces: Promise<Map<K, R>>[] = [];
    for (let at = 0; at < batch.length; at += DETAIL_BATCH)
      pieces.push(source.rows(batch.slice(at, at + DETAIL_BATCH).map((hit) => hit.key)));
    const found = await Promise.all(pieces);
    batch.forEach((hit, index) => {
      const row = found[Math.floor(index / DETAIL_BATCH)]?.get(hit.key) as
        | (R & { routeFraction: number })
        | undefined;
      const chunk = chunks[hit.chunk];
      if (!row || !chunk) return;
      const exact = nearestOnLineAt(prepared, row.lon, row.lat, chunk.first, chunk.last);
      if (exact.distanceKm > corridorKm) return;
      row.routeFraction = totalKm > 0 ? Math.min(1, Math.max(0, exact.alongKm / totalKm)) : 0;
      stations.push(row);
    });
  };

  /** The pieces of the round that starts at chunk `from`. */
  const roundPieces = (from: number): CorridorPiece[] => {
    const pieces: CorridorPiece[] = [];
    for (let index = from; index < Math.min(from + CHUNKS_PER_ROUND, chunks.length); index++) {
      const previous = chunks[index - 1]?.boxes;
      const skip = previous?.length === 1 ? previous[0] : undefined;
      for (const box of chunks[index]?.boxes ?? [])
        pieces.push(skip ? { chunk: index, box, skip } : { chunk: index, box });
    }
    return pieces;
  };
  /**
   * On a concurrent backend the next round's candidates are asked for before this round's stations are
   * read, so the two run side by side; if the reads fill the limit, that answer is waited for (a query is
   * never left running) and dropped.
   */
  let nextCandidates: Promise<Iterable<Candidate<K>>> | undefined =
    source.concurrent && chunks.length > 0 ? source.candidates(roundPieces(0)) : undefined;

  let firstBox = 0;
  let probe: Hit<K> | undefined;
  try {
    for (let from = 0; from < chunks.length && stations.length <= limit; from += CHUNKS_PER_ROUND) {
      const to = Math.min(from + CHUNKS_PER_ROUND, chunks.length);
      while (firstBox < owner.length && (owner[firstBox] as number) < from) firstBox++;
      const candidates = await (nextCandidates ?? source.candidates(roundPieces(from)));
      nextCandidates =
        source.concurrent && to < chunks.length ? source.candidates(roundPieces(to)) : undefined;
      for (const [key, lon, lat, own] of candidates) {
        if (seen.has(key)) continue;
        seen.add(key);
        // Measured against every chunk from this round on whose box holds it, in order along the line: the
        // same measurements, in the same order, as one candidate per box would get, so the result is final.
        // Measured in one scratch record; only a station in the corridor (about a third) gets its own.
        const hit = probe ?? { key, lon, lat, alongKm: 0, distanceKm: Infinity, chunk: -1 };
        probe = hit;
        hit.key = key;
        hit.lon = lon;
        hit.lat = lat;
        hit.distanceKm = Infinity;
        hit.chunk = -1;
        let last = -1;
        for (const box of cells ? (cells.get(cellOf(lon, lat)) ?? []) : allBoxes) {
          if (box < firstBox) continue;
          const index = owner[box] as number;
          if (index === last) continue;
          const e = box * 4;
          const inside =
            lon >= (edges[e] as number) &&
            lon <= (edges[e + 2] as number) &&
            lat >= (edges[e + 1] as number) &&
            lat <= (edges[e + 3] as number);
          if (!inside && index !== own) continue;
          measure(hit, index);
          last = index;
        }
        if (hit.chunk >= 0) open.push({ ...hit });
      }
      // A station not seen yet lies at or after the start of the next chunk: the stations before it are final.
      const frontier = to < chunks.length ? (prepared.cum[chunks[to]?.first ?? 0] ?? totalKm) : Infinity;
      const settled: Hit<K>[] = [];
      const still: Hit<K>[] = [];
      for (const hit of open) (hit.alongKm < frontier ? settled : still).push(hit);
      open = still;
      settled.sort((a, b) => a.alongKm - b.alongKm);
      for (const hit of settled) ordered.push(hit);
      const done = to >= chunks.length;
      while (
        stations.length <= limit &&
        (ordered.length - fetched >= DETAIL_BATCH || (done && fetched < ordered.length))
      ) {
        // A batch adds at most DETAIL_BATCH stations, so the batches it surely takes to pass the limit are
        // read in one call: the same batches as one at a time, in fewer round trips.
        const needed = Math.max(1, Math.ceil((limit + 1 - stations.length) / DETAIL_BATCH)) * DETAIL_BATCH;
        const waiting = ordered.length - fetched;
        const ready = done ? waiting : waiting - (waiting % DETAIL_BATCH);
        const batch = ordered.slice(fetched, fetched + Math.min(needed, ready));
        fetched += batch.length;
        await read(batch);
      }
    }
  } finally {
    await nextCandidates?.catch(() => undefined);
  }
  return { stations: stations.sort(byRouteOrder).slice(0, limit), truncated: stations.length > limit };
}
