/**
 * Numbered migrations, migrations/{sqlite,postgres}/NNN_name.sql, each applied in its own transaction
 * and recorded in schema_migrations. Only the migrate step runs them; the viewer never does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../../common/logger';
import { driverOf } from './archive-store';
import type { DatabaseConfig } from './config';
import type { Driver } from './driver';
import { openDriver } from './open';
import { sql } from './sql';
import type { ArchiveDatabase } from './store';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Migration {
  version: number;
  name: string;
  script: string;
}

export class MigrationRefused extends Error {
  override name = 'MigrationRefused';
}

export function listMigrations(dialect: Driver['dialect']): Migration[] {
  const dir = path.join(DIR, dialect === 'sqlite' ? 'sqlite' : 'postgres');
  return readdirSync(dir)
    .filter((file) => /^\d{3}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 3)),
      name: file.replace(/\.sql$/, ''),
      script: readFileSync(path.join(dir, file), 'utf8'),
    }));
}

const HISTORY = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at text NOT NULL
)`;

export async function appliedVersions(driver: Driver): Promise<number[]> {
  if (!(await driver.hasTable('schema_migrations'))) return [];
  const rows = await driver.all<{ version: number }>(
    sql`SELECT version FROM schema_migrations ORDER BY version`,
  );
  return rows.map((r) => Number(r.version));
}

/** Applies every pending migration; returns the names applied (empty when up to date). */
export async function migrateDriver(driver: Driver, logger?: Logger): Promise<string[]> {
  const applied = new Set(await appliedVersions(driver));
  if (applied.size === 0 && (await driver.hasTable('chats'))) {
    throw new MigrationRefused('the database has archive tables but no migration history; it is not stamped');
  }
  await driver.exec(HISTORY);
  const done: string[] = [];
  for (const migration of listMigrations(driver.dialect)) {
    if (applied.has(migration.version)) continue;
    const stamp = `INSERT INTO schema_migrations (version, name, applied_at) VALUES (${migration.version}, '${migration.name}', '${new Date().toISOString()}');`;
    await driver.exec(`${migration.script}\n;\n${stamp}`);
    logger?.info({ migration: migration.name }, 'migration applied');
    done.push(migration.name);
  }
  return done;
}

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
