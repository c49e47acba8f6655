/**
 * The stations' positions in memory for the corridor search on PostgreSQL (../positions.ts), read again
 * after a write.
 */
import type { CorridorSource, Placed } from '../corridor';
import { type KeyColumn, PositionsBuilder, type StationPositions } from '../positions';
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
  const positions = new PositionsBuilder<string>(0, new UuidColumn());
  await forEachRow<[string, number, number]>(
    c.pool,
    { text: 'SELECT id::text, ST_X(geom), ST_Y(geom) FROM stations' },
    ([id, lon, lat]) => positions.add(id, lon, lat),
  );
  return positions.finish();
}

/**
 * Station ids (UUIDs as PostgreSQL writes them: lowercase, with hyphens) packed as four 32-bit words each,
 * written back as text when asked for. As strings, 10,000,000 ids take about 650 MB (2,000,000 measured:
 * 129 MB); packed, 160 MB, and at most twice that while the column grows.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class UuidColumn implements KeyColumn<string> {
  private words = new Uint32Array(4 * 1024);
  length = 0;

  push(id: string): void {
    if (!UUID.test(id)) throw new Error(`not a station id: ${id}`);
    const hex = id.replaceAll('-', '');
    if (4 * this.length === this.words.length) {
      const grown = new Uint32Array(2 * this.words.length);
      grown.set(this.words);
      this.words = grown;
    }
    for (let k = 0; k < 4; k++)
      this.words[4 * this.length + k] = Number.parseInt(hex.slice(8 * k, 8 * k + 8), 16);
    this.length++;
  }

  at(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return undefined;
    const hex = Array.from(this.words.subarray(4 * index, 4 * index + 4), (word) =>
      word.toString(16).padStart(8, '0'),
    ).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}
