/**
 * The nearest-station search both backends share: a circle that starts small and widens four times at a
 * time up to the radius asked for, stopping as soon as `limit` stations with the fuel lie inside (any station
 * outside the circle is farther than all of them). Measuring every station of a 10 km radius in the middle
 * of a city cost its distance and sort for each: on PostgreSQL 13 ms at 200,000 stations and 58 ms at
 * 1,000,000, where the first circles hold a few dozen (scripts/bench/README.md, fuel decisions).
 */
import type { NearestRow } from './store';

/**
 * Where the widening starts: a share of the radius, and a smallest circle. Each backend gives its own,
 * as a circle costs it: in process, SQLite's next circle costs about what it measures, so it starts at a
 * 256th of the radius (at least 25 m); a circle is a round trip to PostgreSQL (0.3-0.7 ms at 1,000,000
 * stations), so it starts at a 64th (at least 100 m), and measures more stations in fewer trips. A 16th
 * measured every station of 625 m around Madrid's centre for a 10 km search: 16.7 ms on SQLite at
 * 10,000,000 stations; a 256th there takes 0.18 ms, against 0.24 at 1,000,000, where a 64th took 0.19
 * and 0.79 (scripts/bench/README.md, fuel).
 */
export interface FirstCircle {
  share: number;
  leastKm: number;
}

/**
 * `within(km)` gives the nearest stations with the fuel inside a circle of `km`, nearest first, up to
 * `limit`; the circles start at `first` and widen four times at a time.
 */
export async function nearestInWideningCircles(
  radiusKm: number,
  limit: number,
  first: FirstCircle,
  within: (circleKm: number) => NearestRow[] | Promise<NearestRow[]>,
): Promise<NearestRow[]> {
  let circleKm = Math.min(radiusKm, Math.max(first.leastKm, radiusKm * first.share));
  for (;;) {
    const found = await within(circleKm);
    if (found.length >= limit || circleKm >= radiusKm) return found;
    circleKm = Math.min(radiusKm, circleKm * 4);
  }
}
