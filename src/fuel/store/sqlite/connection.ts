/**
 * The SQLite store's connection: the file opened with this store's settings, its statements prepared once.
 */
import type Database from 'better-sqlite3';
import { openSqlite } from '../../../common/databases';
import { VersionedPositions } from '../positions';

export interface SqliteStoreOptions {
  /** Apply pending migrations on open (default true). */
  migrate?: boolean;
  /**
   * The connection of the scrape thread: a small page cache and no memory map. A scrape writes most pages
   * once; with the readers' settings a 1,000,000-station ingest kept about 300 MB of them resident.
   */
  forScrapes?: boolean;
  /**
   * Stations whose positions one statement reads when the corridor search reads them again after a write
   * (default 50,000); the server answers other requests between two statements.
   */
  positionsPerRead?: number;
  /** The fewest stations (of any kind) in a zoom-14 tile for a build to copy its rows (street-copies.ts). */
  streetCopyFrom?: number;
}

export const POSITIONS_PER_READ = 50_000;

/** Opens an SQLite file with the settings every connection of this store uses (the common opener). */
export function openSqliteDatabase(
  file: string,
  options: Pick<SqliteStoreOptions, 'forScrapes'> = {},
): Database.Database {
  return openSqlite(file, {
    // A country-sized box reads 20,000 rows in random order: a page cache of 64 MB and a memory-mapped
    // file spare most of the read system calls (measured in scripts/bench/fuel.ts).
    pragmas: options.forScrapes
      ? ['cache_size = -16384', 'mmap_size = 0']
      : file === ':memory:'
        ? ['cache_size = -65536']
        : ['cache_size = -65536', 'mmap_size = 268435456'],
  });
}

/**
 * What every part of the SQLite store shares: the file's connection, its statements prepared once, and the
 * stations' positions for the corridor search by the file's version they were read at (positions.ts).
 */
export class SqliteConnection {
  private readonly statements = new Map<string, Database.Statement>();
  readonly positions = new VersionedPositions<number>();

  constructor(
    readonly db: Database.Database,
    readonly positionsPerRead: number,
    readonly streetCopyFrom: number,
  ) {}

  prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
