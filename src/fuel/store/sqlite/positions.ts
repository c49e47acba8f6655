/**
 * The stations' positions in memory for the corridor search on SQLite (../positions.ts), read again after a
 * write.
 */
import type Database from 'better-sqlite3';
import type { CorridorSource, Placed } from '../corridor';
import { PositionsBuilder, type StationPositions } from '../positions';
import type { SqliteConnection } from './connection';

/**
 * The corridor search over the stations' positions in memory (positions.ts): candidates with their exact
 * coordinates, keyed by their place in the index (small integers, where station numbers are above 2^31).
 * `details` reads the stations of a batch given as a JSON array of numbers (`@seqs`), each row with its
 * place in that array (`j.key`), which `entry` returns with the row.
 */
export async function corridorSource<Raw, R extends Placed>(
  c: SqliteConnection,
  fuel: string,
  details: Database.Statement,
  entry: (row: Raw) => [number, R],
): Promise<CorridorSource<R>> {
  const index = await stationPositions(c);
  return {
    positions: index,
    rows: async (places) => {
      const seqs = JSON.stringify(places.map((place) => index.keyAt(place)));
      const found = new Map<number, R>();
      for (const row of details.all({ seqs, fuel }) as Raw[]) {
        const [at, value] = entry(row);
        found.set(places[at] as number, value);
      }
      return found;
    },
  };
}

/**
 * The stations' positions, read again when the file has changed since they were read: `data_version`
 * moves when another connection commits (the scrape thread's, another process's), `total_changes()` when
 * this one writes (VersionedPositions).
 */
function stationPositions(c: SqliteConnection): Promise<StationPositions> {
  const version = c
    .prepare("SELECT total_changes() || ',' || data_version FROM pragma_data_version")
    .pluck()
    .get() as string;
  return c.positions.at(version, () => readPositions(c));
}

/**
 * Every station's position, `positionsPerRead` stations a statement in the order of their numbers, and the
 * server answering other requests between two statements: read in one, 1,000,000 stations held every
 * request for about 0.9 s (scripts/bench/README.md, fuel decisions). A write between two statements
 * moves the version, so the next search reads them again.
 */
async function readPositions(c: SqliteConnection): Promise<StationPositions> {
  const next = c.prepare('SELECT seq, lon, lat FROM stations WHERE seq > ? ORDER BY seq LIMIT ?').raw();
  const positions = new PositionsBuilder(c.prepare('SELECT count(*) FROM stations').pluck().get() as number);
  for (let after = -1; ; ) {
    const read = next.all(after, c.positionsPerRead) as [number, number, number][];
    for (const [seq, lon, lat] of read) positions.add(seq, lon, lat);
    const last = read.at(-1);
    if (!last || read.length < c.positionsPerRead) break;
    after = last[0];
    await new Promise((resolve) => setImmediate(resolve));
  }
  return positions.finish();
}
