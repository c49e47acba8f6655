/**
 * Every station's position in memory, in a static k-d tree (kdbush), for the corridor search's candidates.
 * A corridor of 1,000 km has about 25,000 candidates in the boxes along its line; reading them from
 * SQLite's R*Tree cost 12–14 ms, most of it in handing each row to JavaScript, and from PostGIS ten queries;
 * this index answers the same boxes in about 2 ms, with the stations' exact coordinates
 * (scripts/bench/README.md, "eighth pass"). Each adapter keeps one and reads it again when its stations
 * have changed (SqliteFuelStore.corridorSource, PostgresFuelStore.stationPositions).
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

/** Builds the index from `count` rows of [key, lon, lat] (a query's raw rows, read once). */
export function stationPositions(count: number, rows: Iterable<[number, number, number]>): StationPositions {
  const keys = new Float64Array(count);
  const lons = new Float64Array(count);
  const lats = new Float64Array(count);
  let at = 0;
  for (const [key, lon, lat] of rows) {
    if (at === count) break;
    keys[at] = key;
    lons[at] = lon;
    lats[at] = lat;
    at++;
  }
  return new StationPositions(keys.subarray(0, at), lons.subarray(0, at), lats.subarray(0, at));
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
