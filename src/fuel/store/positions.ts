/**
 * Every station's position in memory, in a static k-d tree (kdbush), for the corridor search's candidates.
 * A corridor of 1,000 km has about 25,000 candidates in the boxes along its line; reading them from
 * SQLite's R*Tree cost 12–14 ms, most of it in handing each row to JavaScript, and from PostGIS ten queries;
 * this index answers the same boxes in about 2 ms, with the stations' exact coordinates
 * (scripts/bench/README.md, "eighth pass"). Each adapter keeps one and reads it again when its stations
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
 * Collects stations' numeric keys and positions as they are read, in arrays that grow when more come than
 * expected, and makes the index of them at the end.
 */
export class PositionsBuilder {
  private keys: Float64Array;
  private lons: Float64Array;
  private lats: Float64Array;
  private count = 0;

  constructor(expected: number) {
    const size = Math.max(1, expected);
    this.keys = new Float64Array(size);
    this.lons = new Float64Array(size);
    this.lats = new Float64Array(size);
  }

  add(key: number, lon: number, lat: number): void {
    if (this.count === this.keys.length) {
      const grown = (from: Float64Array) => {
        const to = new Float64Array(from.length * 2);
        to.set(from);
        return to;
      };
      this.keys = grown(this.keys);
      this.lons = grown(this.lons);
      this.lats = grown(this.lats);
    }
    this.keys[this.count] = key;
    this.lons[this.count] = lon;
    this.lats[this.count] = lat;
    this.count++;
  }

  finish(): StationPositions {
    const n = this.count;
    return new StationPositions(this.keys.subarray(0, n), this.lons.subarray(0, n), this.lats.subarray(0, n));
  }
}

/** The same from rows whose keys are not numbers (PostgreSQL's ids). */
export function stationPositionsOf<K>(rows: [K, number, number][]): StationPositions<K> {
  const lons = new Float64Array(rows.length);
  const lats = new Float64Array(rows.length);
  rows.forEach(([, lon, lat], at) => {
    lons[at] = lon;
    lats[at] = lat;
  });
  return new StationPositions(
    rows.map(([key]) => key),
    lons,
    lats,
  );
}
