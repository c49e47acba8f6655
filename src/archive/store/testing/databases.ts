/**
 * Throwaway databases for tests: a SQLite file in a fresh temporary directory, or a PostgreSQL database
 * of its own (`specyard_archive_<random>`) on 127.0.0.1, dropped afterwards. Other suites run at the
 * same time, so nothing here touches a shared database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '../../../common/logger';
import {
  createTestDatabase as createPostgresTestDatabase,
  migratedTemplate,
} from '../../../common/testing/postgres';
import { seedFixtures } from '../../demo/dataset';
import type { DatabaseConfig } from '../config';
import { migrateOpenStore } from '../migrate';
import { openArchiveStore } from '../open';
import type { ArchiveDatabase, Backend } from '../store';

export const TEST_BACKENDS: readonly Backend[] = ['sqlite', 'postgresql'];

/** Every PostgreSQL test database starts as a copy of one migrated database (made once per migration set). */
const MIGRATED = migratedTemplate(
  'specyard_archive',
  [fileURLToPath(new URL('../migrations/postgres', import.meta.url))],
  async (url) => {
    const db = await openArchiveStore(
      { backend: 'postgresql', url, timeoutSeconds: 5, echo: false },
      silentLogger(),
    );
    try {
      await migrateOpenStore(db);
    } finally {
      await db.close();
    }
  },
);

export interface TestDatabase {
  config: DatabaseConfig;
  drop(): Promise<void>;
}

/** An empty database; `migrated`: PostgreSQL starts as a copy of the migrated template (SQLite migrates fast). */
export async function createTestDatabase(
  backend: Backend,
  options: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'specyard-archive-'));
    return {
      config: { backend: 'sqlite', path: path.join(dir, 'archive.db'), timeoutSeconds: 5, echo: false },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const database = await createPostgresTestDatabase(
    'specyard_archive',
    options.migrated ? MIGRATED : undefined,
  );
  return {
    config: { backend: 'postgresql', url: database.url, timeoutSeconds: 5, echo: false },
    drop: database.drop,
  };
}

export interface TestStore {
  db: ArchiveDatabase;
  config: DatabaseConfig;
  /** Closes the store and drops the database. */
  close(): Promise<void>;
}

/** A migrated store on a fresh database, with the fixture archive unless `seed` is false. */
export async function openTestStore(backend: Backend, options: { seed?: boolean } = {}): Promise<TestStore> {
  const database = await createTestDatabase(backend, { migrated: true });
  const db = await openArchiveStore(database.config, silentLogger());
  try {
    await migrateOpenStore(db);
    if (options.seed !== false) await seedFixtures(db);
  } catch (err) {
    await db.close();
    await database.drop();
    throw err;
  }
  return {
    db,
    config: database.config,
    close: async () => {
      await db.close();
      await database.drop();
    },
  };
}
