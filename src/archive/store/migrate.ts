/**
 * Numbered migrations, migrations/{sqlite,postgres}/NNN_name.sql, run by the common runner (gap and
 * checksum checks, one transaction each, an advisory lock on PostgreSQL) and recorded in schema_migrations.
 * Only the migrate step runs them; the viewer never does.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../../common/logger';
import { migrationLabel, readMigrations, runMigrations } from '../../common/migrations';
import { driverOf } from './archive-store';
import type { DatabaseConfig } from './config';
import type { Driver } from './driver';
import { openDriver } from './open';
import { PostgresDriver } from './postgres';
import { sql } from './sql';
import { SqliteDriver } from './sqlite';
import type { ArchiveDatabase } from './store';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK = 'specyard_archive_migrations';

export interface Migration {
  version: number;
  /** `001_archive` */
  name: string;
  script: string;
}

export class MigrationRefused extends Error {
  override name = 'MigrationRefused';
}

export function listMigrations(dialect: Driver['dialect']): Migration[] {
  return readMigrations(path.join(DIR, dialect === 'sqlite' ? 'sqlite' : 'postgres')).map((m) => ({
    version: m.version,
    name: migrationLabel(m),
    script: m.sql,
  }));
}

export async function appliedVersions(driver: Driver): Promise<number[]> {
  if (!(await driver.hasTable('schema_migrations'))) return [];
  const rows = await driver.all<{ version: number }>(
    sql`SELECT version FROM schema_migrations ORDER BY version`,
  );
  return rows.map((r) => Number(r.version));
}

/** Applies every pending migration; returns the names applied (empty when up to date). */
export async function migrateDriver(driver: Driver, logger?: Logger): Promise<string[]> {
  const applied = await appliedVersions(driver);
  if (applied.length === 0 && (await driver.hasTable('chats'))) {
    throw new MigrationRefused('the database has archive tables but no migration history; it is not stamped');
  }
  let target: Parameters<typeof runMigrations>[0];
  if (driver instanceof SqliteDriver) target = { backend: 'sqlite', db: driver.db };
  else if (driver instanceof PostgresDriver) target = { backend: 'postgresql', pool: driver.pool };
  else throw new TypeError('not a driver opened by openDriver');
  const done = (await runMigrations(target, DIR, LOCK)).map(migrationLabel);
  for (const name of done) logger?.info({ migration: name }, 'migration applied');
  return done;
}

/** What a command says of a database `archive-cli migrate` has not set up yet. */
export const NO_SCHEMA = 'the database has no schema yet: run `archive-cli migrate`';

export async function migrateArchive(config: DatabaseConfig, logger?: Logger): Promise<string[]> {
  const driver = openDriver(config, logger);
  try {
    return await migrateDriver(driver, logger);
  } finally {
    await driver.close();
  }
}

/** Migrates the database under an open store (tests, demo loaders). */
export async function migrateOpenStore(store: ArchiveDatabase, logger?: Logger): Promise<string[]> {
  return migrateDriver(driverOf(store), logger);
}
