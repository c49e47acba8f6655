import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import {
  type Migration,
  type MigrationTarget,
  migrateSqlite,
  readMigrations,
  runMigrations,
} from '../../common/migrations';

export type { Migration } from '../../common/migrations';

/** migrations/{sqlite,postgres}/NNN_name.sql */
const FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK = 'specyard_fuel_migrations';

/** Applies the fuel store's pending migrations (the common runner: checksums, gaps, advisory lock). */
export function migrateFuel(target: MigrationTarget): Promise<Migration[]> {
  return runMigrations(target, FOLDER, LOCK);
}

/** The same on SQLite, synchronously, for the store opener. */
export function migrateFuelSqlite(db: Database.Database): Migration[] {
  return migrateSqlite(db, readMigrations(path.join(FOLDER, 'sqlite')));
}
