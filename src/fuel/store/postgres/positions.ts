/**
 * The stations' positions in memory for the corridor search on PostgreSQL (../positions.ts), read again
 * after a write.
 */
import type { CorridorSource, Placed } from '../corridor';
import { PositionsBuilder, type StationPositions } from '../positions';
import { forEachRow, type PostgresConnection } from './connection';

/**
 * The corridor search over the stations' positions in memory; `detail` reads a batch of stations by id,
 * each row with its place in the batch. The ids are sent as one text, separated by commas: the driver's
 * writing of an array parameter (quoting each element) cost about 3 ms of a 5,000-station search.
 */
export async function corridorSource<R extends Placed>(
  c: PostgresConnection,
  detail: (ids: string) => Promise<[number, R][]>,
): Promise<CorridorSource<R>> {
  const index = await stationPositions(c);
  return {
    positions: index,
    rows: async (places) => {
      // In the order of the places, which is the order the stations were read in (the table's): the rows
      // are fetched from the table's pages in order.
      const sorted = Int32Array.from(places).sort();
      const found = new Map<number, R>();
      for (const [at, row] of await detail(Array.from(sorted, (place) => index.keyAt(place)).join(',')))
        found.set(sorted[at] as number, row);
      return found;
    },
  };
}

/**
 * The stations' positions, read again when `stations_version` (migration 005) has moved since they were
 * read (VersionedPositions).
 */
async function stationPositions(c: PostgresConnection): Promise<StationPositions<string>> {
  const { rows } = await c.pool.query<{ version: string }>('SELECT version::text FROM stations_version');
  return c.positions.at(rows[0]?.version ?? '', () => readPositions(c));
}

/**
 * Every station's position, each row handed over as the driver reads it: collected first, 1,000,000 rows
 * and their index held every request for 0.3–0.4 s at the end of the read (scripts/bench/README.md,
 * fuel decisions); now the index alone does.
 */
async function readPositions(c: PostgresConnection): Promise<StationPositions<string>> {
  const positions = new PositionsBuilder<string>();
  await forEachRow<[string, number, number]>(
    c.pool,
    { text: 'SELECT id::text, ST_X(geom), ST_Y(geom) FROM stations' },
    ([id, lon, lat]) => positions.add(id, lon, lat),
  );
  return positions.finish();
}
