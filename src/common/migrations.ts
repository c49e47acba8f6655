/**
 * The one migration runner of every service, for both dialects. A service keeps its schema changes as
 * numbered files, `migrations/<dialect>/NNN_name.sql`; each is applied once, in its own transaction, and
 * recorded in `schema_migrations` with the checksum of its text. The runner refuses to run when the
 * numbering has a gap, when an applied file was changed (or removed) since, or when the database holds
 * versions this code does not know. On PostgreSQL an advisory lock makes processes that start together
 * migrate one after the other (the later ones find nothing to do); on SQLite each step re-reads the history
 * inside an immediate (write-locked) transaction. No SQL is built from values: they travel as parameters.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type pg from 'pg';

/** One numbered schema change: `NNN_name.sql` in a service's migrations folder. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** sha256 of the file's text (line endings normalised). */
  checksum: string;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

const MIGRATION_FILE = /^(\d{3})_([a-z0-9_]+)\.sql$/;

export const checksumOf = (sql: string): string =>
  createHash('sha256').update(sql.replace(/\r\n/g, '\n')).digest('hex');

/** `001_archive`: how a migration is named in messages. */
export const migrationLabel = (m: Pick<Migration, 'version' | 'name'>): string =>
  `${String(m.version).padStart(3, '0')}_${m.name}`;

/** The migrations of a folder in order; numbering must run 001, 002, … without gaps. */
export function readMigrations(dir: string): Migration[] {
  const migrations = readdirSync(dir)
    .map((file) => ({ file, match: MIGRATION_FILE.exec(file) }))
    .filter((entry) => entry.match)
    .map(({ file, match }) => {
      const sql = readFileSync(path.join(dir, file), 'utf8');
      return { version: Number(match?.[1]), name: match?.[2] ?? file, sql, checksum: checksumOf(sql) };
    })
    .sort((a, b) => a.version - b.version);
  for (const [i, m] of migrations.entries()) {
    if (m.version !== i + 1)
      throw new MigrationError(`migrations in ${dir} must be numbered 001, 002, … without gaps`);
  }
  return migrations;
}

interface AppliedRow {
  version: number;
  checksum: string | null;
}

/**
 * What is left to apply, after checking the history against the files. A row recorded before checksums
 * were kept (checksum null) is trusted and stamped with the file's checksum by the caller.
 */
export function pendingMigrations(migrations: Migration[], applied: AppliedRow[]): Migration[] {
  const byVersion = new Map(migrations.map((m) => [m.version, m]));
  for (const row of applied) {
    const file = byVersion.get(Number(row.version));
    if (!file) {
      throw new MigrationError(
        `the database has migration ${row.version}, which this version does not know (is it older than the database?)`,
      );
    }
    if (row.checksum !== null && row.checksum !== file.checksum) {
      throw new MigrationError(
        `migration ${migrationLabel(file)} was changed after it was applied; add a new migration instead`,
      );
    }
  }
  const done = new Set(applied.map((r) => Number(r.version)));
  return migrations.filter((m) => !done.has(m.version));
}

const HISTORY = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at text NOT NULL,
  checksum text
)`;

/** Applies what an SQLite database lacks, each migration in its own immediate transaction. */
export function migrateSqlite(db: Database.Database, migrations: Migration[]): Migration[] {
  db.exec(HISTORY);
  const hasChecksum = db
    .prepare("SELECT 1 FROM pragma_table_info('schema_migrations') WHERE name = 'checksum'")
    .get();
  if (!hasChecksum) db.exec('ALTER TABLE schema_migrations ADD COLUMN checksum text');
  const history = db.prepare('SELECT version, checksum FROM schema_migrations ORDER BY version');
  const stamp = db.prepare(
    'UPDATE schema_migrations SET checksum = ? WHERE version = ? AND checksum IS NULL',
  );
  const record = db.prepare(
    'INSERT INTO schema_migrations (version, name, applied_at, checksum) VALUES (?, ?, ?, ?)',
  );
  const read = () => history.all() as AppliedRow[];
  const first = pendingMigrations(migrations, read());
  db.transaction(() => {
    for (const m of migrations) stamp.run(m.checksum, m.version);
  }).immediate();
  const applied: Migration[] = [];
  for (const candidate of first) {
    db.transaction(() => {
      // Another process may have applied it since the first read: decide again under the write lock.
      if (!pendingMigrations(migrations, read()).some((m) => m.version === candidate.version)) return;
      db.exec(candidate.sql);
      record.run(candidate.version, candidate.name, new Date().toISOString(), candidate.checksum);
      applied.push(candidate);
    }).immediate();
  }
  return applied;
}

/** A pool, or one client, of a PostgreSQL database. */
export type PgQueryable = pg.Pool | pg.Client;

/**
 * Applies what a PostgreSQL database lacks, under the advisory lock named `lockName` (one per service),
 * on one connection, each migration in its own transaction.
 */
export async function migratePostgres(
  target: PgQueryable,
  migrations: Migration[],
  lockName: string,
): Promise<Migration[]> {
  const isPool = 'totalCount' in target;
  const client = isPool ? await (target as pg.Pool).connect() : (target as pg.Client);
  let locked = false;
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [lockName]);
    locked = true;
    await client.query(HISTORY);
    await client.query('ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text');
    const { rows } = await client.query<AppliedRow>(
      'SELECT version, checksum FROM schema_migrations ORDER BY version',
    );
    const pending = pendingMigrations(migrations, rows);
    for (const m of migrations) {
      await client.query(
        'UPDATE schema_migrations SET checksum = $1 WHERE version = $2 AND checksum IS NULL',
        [m.checksum, m.version],
      );
    }
    for (const migration of pending) {
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query(
          'INSERT INTO schema_migrations (version, name, applied_at, checksum) VALUES ($1, $2, $3, $4)',
          [migration.version, migration.name, new Date().toISOString(), migration.checksum],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    }
    return pending;
  } finally {
    if (locked) await client.query('SELECT pg_advisory_unlock(hashtext($1))', [lockName]).catch(() => {});
    if (isPool) (client as pg.PoolClient).release();
  }
}

/** Where a service's migrations go: an open SQLite database or a PostgreSQL pool. */
export type MigrationTarget =
  | { backend: 'sqlite'; db: Database.Database }
  | { backend: 'postgresql'; pool: PgQueryable };

/**
 * The entry point every `migrate` command, `scripts/migrate/*` and store opener calls: the folder holds
 * one subfolder per dialect (`sqlite/`, `postgres/`); `lockName` names the service's advisory lock.
 */
export async function runMigrations(
  target: MigrationTarget,
  folder: string,
  lockName: string,
): Promise<Migration[]> {
  return target.backend === 'sqlite'
    ? migrateSqlite(target.db, readMigrations(path.join(folder, 'sqlite')))
    : migratePostgres(target.pool, readMigrations(path.join(folder, 'postgres')), lockName);
}
