import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgPool, openSqlite } from './databases';
import { MigrationError, migrationLabel, readMigrations, runMigrations } from './migrations';
import { createTestDatabase } from './testing/postgres';

const root = mkdtempSync(path.join(os.tmpdir(), 'specyard-migrations-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let folders = 0;
/** A service's migrations folder with the same files for both dialects. */
function folder(files: Record<string, string>): string {
  const dir = path.join(root, `service-${++folders}`);
  for (const dialect of ['sqlite', 'postgres']) {
    mkdirSync(path.join(dir, dialect), { recursive: true });
    for (const [name, sql] of Object.entries(files)) writeFileSync(path.join(dir, dialect, name), sql);
  }
  return dir;
}

const FIRST = 'CREATE TABLE notes (id integer PRIMARY KEY, body text NOT NULL);';
const SECOND = 'ALTER TABLE notes ADD COLUMN tag text;';

describe('readMigrations', () => {
  it('reads numbered files in order and refuses a gap', () => {
    const dir = folder({ '002_tag.sql': SECOND, '001_notes.sql': FIRST, 'README.md': 'not a migration' });
    expect(readMigrations(path.join(dir, 'sqlite')).map(migrationLabel)).toEqual(['001_notes', '002_tag']);
    const gap = folder({ '001_notes.sql': FIRST, '003_tag.sql': SECOND });
    expect(() => readMigrations(path.join(gap, 'sqlite'))).toThrow(/without gaps/);
  });
});

type Target = Parameters<typeof runMigrations>[0];

/** A new, empty database of each backend for `work`, and the folder of its migration files. */
const BACKENDS = {
  sqlite: {
    folder: 'sqlite',
    async with<T>(work: (target: Target) => Promise<T>): Promise<T> {
      const db = openSqlite(path.join(root, `db-${++folders}.sqlite`));
      try {
        return await work({ backend: 'sqlite', db });
      } finally {
        db.close();
      }
    },
  },
  postgresql: {
    folder: 'postgres',
    async with<T>(work: (target: Target) => Promise<T>): Promise<T> {
      const database = await createTestDatabase('specyard_migrations');
      const pool = createPgPool(database.url, { max: 2 });
      try {
        return await work({ backend: 'postgresql', pool });
      } finally {
        await pool.end();
        await database.drop();
      }
    },
  },
} as const;

describe.each(['sqlite', 'postgresql'] as const)('runMigrations on %s', (backend) => {
  const withTarget = <T>(work: (target: Target) => Promise<T>) => BACKENDS[backend].with(work);
  const sub = BACKENDS[backend].folder;

  it('applies what is pending once, then nothing', async () => {
    const dir = folder({ '001_notes.sql': FIRST });
    await withTarget(async (target) => {
      expect((await runMigrations(target, dir, 'test_lock')).map(migrationLabel)).toEqual(['001_notes']);
      expect(await runMigrations(target, dir, 'test_lock')).toEqual([]);
      writeFileSync(path.join(dir, sub, '002_tag.sql'), SECOND);
      expect((await runMigrations(target, dir, 'test_lock')).map(migrationLabel)).toEqual(['002_tag']);
    });
  });

  it('refuses to run when an applied file was changed', async () => {
    const dir = folder({ '001_notes.sql': FIRST });
    await withTarget(async (target) => {
      await runMigrations(target, dir, 'test_lock');
      writeFileSync(path.join(dir, sub, '001_notes.sql'), `${FIRST}\n-- edited`);
      writeFileSync(path.join(dir, sub, '002_tag.sql'), SECOND);
      const run = runMigrations(target, dir, 'test_lock');
      await expect(run).rejects.toBeInstanceOf(MigrationError);
      await expect(runMigrations(target, dir, 'test_lock')).rejects.toThrow(
        /001_notes was changed after it was applied/,
      );
    });
  });

  it('refuses a database that has a migration the files lack', async () => {
    const dir = folder({ '001_notes.sql': FIRST, '002_tag.sql': SECOND });
    const older = folder({ '001_notes.sql': FIRST });
    await withTarget(async (target) => {
      await runMigrations(target, dir, 'test_lock');
      await expect(runMigrations(target, older, 'test_lock')).rejects.toThrow(/does not know/);
    });
  });
});

describe('two processes migrating one PostgreSQL database at once', () => {
  it('serialises them on the advisory lock: one applies, the other finds nothing to do', async () => {
    // Without the lock, both would run 001 and the second CREATE TABLE would fail.
    const dir = folder({ '001_notes.sql': FIRST, '002_tag.sql': SECOND });
    const database = await createTestDatabase('specyard_migrations');
    const holder = createPgPool(database.url, { max: 1 });
    const a = createPgPool(database.url, { max: 1 });
    const b = createPgPool(database.url, { max: 1 });
    try {
      // Hold the lock, start both runs, and wait until both are blocked on it: they start together.
      const held = await holder.connect();
      await held.query('SELECT pg_advisory_lock(hashtext($1))', ['test_race']);
      const runs = [a, b].map((pool) => runMigrations({ backend: 'postgresql', pool }, dir, 'test_race'));
      for (;;) {
        const { rows } = await held.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_locks
           WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        if (rows[0]?.waiting === 2) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      await held.query('SELECT pg_advisory_unlock(hashtext($1))', ['test_race']);
      held.release();
      const results = (await Promise.all(runs)).map((applied) => applied.map(migrationLabel));
      expect(results).toContainEqual(['001_notes', '002_tag']);
      expect(results).toContainEqual([]);
      const { rows } = await a.query('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual([1, 2]);
    } finally {
      await Promise.all([holder.end(), a.end(), b.end()]);
      await database.drop();
    }
  });
});
