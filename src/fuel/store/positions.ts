/**
 * Every station's position in memory, in a static k-d tree (kdbush), for the corridor search's candidates.
 * A corridor of 1,000 km asks the spatial index for about 18,000 candidates; reading them from SQLite's
 * R*Tree cost 12–14 ms, most of it in handing each row to JavaScript, where this index answers the same boxes
 * in about 2 ms, with the stations' exact coordinates (scripts/bench/README.md, "eighth pass"). An adapter
 * keeps one and builds it again when its file has changed (see SqliteFuelStore.positions).
 */
import KDBush from 'kdbush';
import type { Candidate, CorridorPiece } from './corridor';

export class StationPositions {
  private readonly index: KDBush;

  /** Parallel arrays: the backend's key of each station, and its longitude and latitude. */
  constructor(
    private readonly keys: Float64Array,
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
  keyAt(place: number): number {
    return this.keys[place] as number;
  }

  /**
   * The stations inside each piece's box (edges included, as the R*Tree's test) and not inside its `skip`
   * box, tagged with the piece's chunk. A candidate's key is its place in the index (see keyAt).
   */
  candidates(pieces: CorridorPiece[]): Candidate<number>[] {
    const found: Candidate<number>[] = [];
    for (const { chunk, box, skip } of pieces) {
      for (const at of this.index.range(box[0], box[1], box[2], box[3])) {
        const lon = this.lons[at] as number;
        const lat = this.lats[at] as number;
        if (skip && lon >= skip[0] && lon <= skip[2] && lat >= skip[1] && lat <= skip[3]) continue;
        found.push([at, lon, lat, chunk]);
      }
    }
    return found;
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
