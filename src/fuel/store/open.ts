import { createPgPool } from '../../common/databases';
import { type Migration, migrateFuel } from './migrations';
import { openPostgresStore } from './postgres';
import { openSqliteDatabase, openSqliteStore } from './sqlite';
import type { FuelStore } from './store';

/** Where the fuel store lives: an SQLite file (or `:memory:`) or a PostgreSQL URL. */
export type DatabaseLocation = { kind: 'sqlite'; path: string } | { kind: 'postgresql'; url: string };

export interface OpenOptions {
  /** Apply pending migrations on open (default true). */
  migrate?: boolean;
  /** The scrape thread's connection (SQLite: see SqliteStoreOptions.forScrapes). */
  forScrapes?: boolean;
}

export async function openFuelStore(
  location: DatabaseLocation,
  options: OpenOptions = {},
): Promise<FuelStore> {
  return location.kind === 'postgresql'
    ? openPostgresStore(location.url, options)
    : openSqliteStore(location.path, options);
}

/** Applies pending migrations and says which ran. */
export async function migrateDatabase(location: DatabaseLocation): Promise<Migration[]> {
  if (location.kind === 'postgresql') {
    const pool = createPgPool(location.url, { max: 1 });
    try {
      return await migrateFuel({ backend: 'postgresql', pool });
    } finally {
      await pool.end();
    }
  }
  const db = openSqliteDatabase(location.path);
  try {
    return await migrateFuel({ backend: 'sqlite', db });
  } finally {
    db.close();
  }
}

/** A location for logs and messages: never the password of a PostgreSQL URL. */
export function describeLocation(location: DatabaseLocation): string {
  if (location.kind === 'sqlite') return `sqlite:${location.path}`;
  try {
    const url = new URL(location.url);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'postgresql';
  }
}
