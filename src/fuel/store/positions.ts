/**
 * Every station's position in memory, in a static k-d tree (kdbush), for the corridor search's candidates.
 * A corridor of 1,000 km has about 25,000 candidates in the boxes along its line; reading them from
 * SQLite's R*Tree cost 12–14 ms, most of it in handing each row to JavaScript, and from PostGIS ten queries;
 * this index answers the same boxes in about 2 ms, with the stations' exact coordinates
 * (scripts/bench/README.md, fuel decisions). Each adapter keeps one and reads it again when its stations
 * have changed (SqliteFuelStore.stationPositions, PostgresFuelStore.stationPositions).
 */
import KDBush from 'kdbush';
import type { BBox } from './store';

export class StationPositions<K = number> {
  private readonly index: KDBush;

  /** Parallel arrays: the backend's key of each station, and its longitude and latitude. */
  constructor(
    private readonly keys: ArrayLike<K>,
    private readonly lons: Float64Array,
    private readonly lats: Float64Array,
  ) {
    this.index = new KDBush(keys.length);
    for (let at = 0; at < keys.length; at++) this.index.add(lons[at] as number, lats[at] as number);
    this.index.finish();
  }

  get size(): number {
    return this.keys.length;
  }

  /** The backend's key of the station at `place` in the index. */
  keyAt(place: number): K {
    return this.keys[place] as K;
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
  private readonly keys: K[] = [];
  private lons: Float64Array;
  private lats: Float64Array;

  constructor(expected = 0) {
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

  finish(): StationPositions<K> {
    const n = this.keys.length;
    return new StationPositions(this.keys, this.lons.subarray(0, n), this.lats.subarray(0, n));
  }
}

/**
 * The positions of one version of the stations, shared by the searches that find that version, read again
 * when the version moves. Each search reads the version before it asks, so positions newer than their
 * version are read once more, never the reverse; a failed read is not kept.
 */
export class VersionedPositions<K> {
  private current?: { version: string; index: Promise<StationPositions<K>> };

  at(version: string, read: () => Promise<StationPositions<K>>): Promise<StationPositions<K>> {
    if (this.current?.version !== version) {
      const index = read();
      const current = { version, index };
      this.current = current;
      index.catch(() => {
        if (this.current === current) this.current = undefined;
      });
    }
    return this.current.index;
  }
}
