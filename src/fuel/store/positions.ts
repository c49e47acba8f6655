/**
 * Every station's position in memory, in a static k-d tree (kdbush), for the corridor search's candidates.
 * A corridor of 1,000 km has about 25,000 candidates in the boxes along its line; reading them from
 * SQLite's R*Tree cost 12–14 ms, most of it in handing each row to JavaScript, and from PostGIS ten queries;
 * this index answers the same boxes in about 2 ms, with the stations' exact coordinates
 * (scripts/bench/README.md, fuel decisions). Each adapter keeps one and reads it again when its stations
 * have changed (SqliteFuelStore.stationPositions, PostgresFuelStore.stationPositions).
 */
import type { Worker } from 'node:worker_threads';
import KDBush from 'kdbush';
import { startWorker } from '../../common/worker-entry';
import type { BBox } from './store';

/** From this many stations on, the index is built on a thread of its own (positions-worker.ts). */
export const OFF_THREAD_FROM = 50_000;

function indexOf(lons: Float64Array, lats: Float64Array): KDBush {
  const index = new KDBush(lons.length);
  for (let at = 0; at < lons.length; at++) index.add(lons[at] as number, lats[at] as number);
  index.finish();
  return index;
}

/**
 * The one index-building thread of the process, started when first needed. It keeps the process up only
 * while an index is asked of it: a process waiting for one goes on, one that has finished ends. (A listener
 * added to a worker after `unref()` holds it again, so it is unreferenced after its listeners.)
 */
let builder:
  | { worker: Worker; next: number; waiting: Map<number, (answer: IndexAnswer) => void> }
  | undefined;

type IndexAnswer = { data: ArrayBuffer } | { error: string };

function buildOffThread(lons: Float64Array, lats: Float64Array): Promise<KDBush> {
  if (!builder) {
    const worker = startWorker('fuel-positions-worker', new URL('./positions-worker.ts', import.meta.url));
    const started = { worker, next: 0, waiting: new Map<number, (answer: IndexAnswer) => void>() };
    worker.on('message', ({ id, ...answer }: { id: number } & IndexAnswer) => {
      started.waiting.get(id)?.(answer);
      started.waiting.delete(id);
      if (started.waiting.size === 0) worker.unref();
    });
    const fail = (error: unknown) => {
      for (const resolve of started.waiting.values()) resolve({ error: String(error) });
      started.waiting.clear();
      if (builder === started) builder = undefined;
    };
    worker.on('error', fail);
    worker.on('exit', () => fail('the index thread stopped'));
    builder = started;
  }
  const running = builder;
  const id = running.next++;
  running.worker.ref();
  return new Promise<KDBush>((resolve, reject) => {
    running.waiting.set(id, (answer) =>
      'data' in answer ? resolve(KDBush.from(answer.data)) : reject(new Error(answer.error)),
    );
    // Copies: the positions keep their own arrays for the corridor's exact distances.
    const copies = [lons.slice(), lats.slice()];
    try {
      running.worker.postMessage(
        { id, lons: copies[0], lats: copies[1] },
        copies.map((a) => a.buffer),
      );
    } catch (error) {
      // Never sent: it is not waited for, and holds the process no longer.
      running.waiting.delete(id);
      if (running.waiting.size === 0) running.worker.unref();
      reject(error);
    }
  });
}

/** The stations' keys in the order they were read: an array, or a column that packs them (UuidColumn). */
export interface KeyColumn<K> {
  readonly length: number;
  at(index: number): K | undefined;
  push(key: K): unknown;
}

export class StationPositions<K = number> {
  /** Parallel arrays: the backend's key of each station, and its longitude and latitude; their index. */
  constructor(
    private readonly keys: Pick<KeyColumn<K>, 'length' | 'at'>,
    private readonly lons: Float64Array,
    private readonly lats: Float64Array,
    private readonly index: KDBush = indexOf(lons, lats),
  ) {}

  /**
   * The positions with their index, built on the index thread when there are many stations (the event
   * loop keeps answering meanwhile) and here when there are few (a thread's round trip costs more).
   */
  static async build<K>(
    keys: Pick<KeyColumn<K>, 'length' | 'at'>,
    lons: Float64Array,
    lats: Float64Array,
  ): Promise<StationPositions<K>> {
    const index = keys.length >= OFF_THREAD_FROM ? await buildOffThread(lons, lats) : indexOf(lons, lats);
    return new StationPositions(keys, lons, lats, index);
  }

  get size(): number {
    return this.keys.length;
  }

  /** The backend's key of the station at `place` in the index. */
  keyAt(place: number): K {
    return this.keys.at(place) as K;
  }

  lonAt(place: number): number {
    return this.lons[place] as number;
  }

  latAt(place: number): number {
    return this.lats[place] as number;
  }

  /** The places of the stations inside the box, edges included. */
  inBox([minLon, minLat, maxLon, maxLat]: BBox): number[] {
    return this.index.range(minLon, minLat, maxLon, maxLat);
  }
}

/**
 * Collects stations' keys and positions as they are read, in arrays that grow when more come than
 * expected, and makes the index of them at the end: the rows are not held until then.
 */
export class PositionsBuilder<K = number> {
  private lons: Float64Array;
  private lats: Float64Array;

  constructor(
    expected = 0,
    private readonly keys: KeyColumn<K> = [],
  ) {
    const size = Math.max(1024, expected);
    this.lons = new Float64Array(size);
    this.lats = new Float64Array(size);
  }

  add(key: K, lon: number, lat: number): void {
    const at = this.keys.length;
    if (at === this.lons.length) {
      const grown = (from: Float64Array) => {
        const to = new Float64Array(from.length * 2);
        to.set(from);
        return to;
      };
      this.lons = grown(this.lons);
      this.lats = grown(this.lats);
    }
    this.keys.push(key);
    this.lons[at] = lon;
    this.lats[at] = lat;
  }

  /** The positions read, with their index (StationPositions.build). */
  finish(): Promise<StationPositions<K>> {
    const n = this.keys.length;
    return StationPositions.build(this.keys, this.lons.subarray(0, n), this.lats.subarray(0, n));
  }
}

/**
 * The positions of one version of the stations, shared by the searches that find that version, read again
 * when the version moves; a failed read is not kept. While a read is under way, a search that finds a
 * newer version shares it rather than starting another: a scrape commits batch after batch, and a read
 * started for each had piled up reads of 200,000 stations on the event loop (scripts/bench/README.md,
 * the fuel map around a scrape). Such a search answers from positions at most one read old, as if it had
 * come a moment earlier; the next search after the read reads the newer version.
 */
export class VersionedPositions<K> {
  private current?: { version: string; index: Promise<StationPositions<K>>; settled: boolean };

  at(version: string, read: () => Promise<StationPositions<K>>): Promise<StationPositions<K>> {
    const current = this.current;
    if (current && (current.version === version || !current.settled)) return current.index;
    const next = { version, index: read(), settled: false };
    this.current = next;
    next.index.then(
      () => {
        next.settled = true;
      },
      () => {
        if (this.current === next) this.current = undefined;
      },
    );
    return next.index;
  }
}
