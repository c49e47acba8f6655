import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';

/** One numbered schema change: `NNN_name.sql` in a service's migrations folder. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const MIGRATION_FILE = /^(\d{3})_([a-z0-9_]+)\.sql$/;

/** The migrations of a folder in order; numbering must run 001, 002, … without gaps. */
export function readMigrations(dir: string): Migration[] {
  const migrations = readdirSync(dir)
    .map((file) => ({ file, match: MIGRATION_FILE.exec(file) }))
    .filter((entry) => entry.match)
    .map(({ file, match }) => ({
      version: Number(match?.[1]),
      name: match?.[2] ?? file,
      sql: readFileSync(path.join(dir, file), 'utf8'),
    }))
    .sort((a, b) => a.version - b.version);
  for (const [i, m] of migrations.entries()) {
    if (m.version !== i + 1)
      throw new Error(`migrations in ${dir} must be numbered 001, 002, … without gaps`);
  }
  return migrations;
}

/** Applies the migrations an SQLite database lacks, each in its own transaction; returns those applied. */
export function applySqliteMigrations(db: Database.Database, migrations: Migration[]): Migration[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = new Set(
    db
      .prepare('SELECT version FROM schema_migrations')
      .pluck()
      .all()
      .map((v) => Number(v)),
  );
  const pending = migrations.filter((m) => !applied.has(m.version));
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const migration of pending) {
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
    })();
  }
  return pending;
}
