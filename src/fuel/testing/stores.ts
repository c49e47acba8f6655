import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, migratedTemplate } from '../../common/testing/postgres';
import { openPostgresStore } from '../store/postgres';
import { openSqliteStore } from '../store/sqlite';
import type { FuelStore, StationRowReads, StoreBackend } from '../store/store';

export interface OpenedTestStore {
  store: FuelStore;
  /** Closes the store and removes its database. */
  dispose(): Promise<void>;
}

/** PostgreSQL test databases start as a copy of one migrated database with PostGIS (made once per migration set). */
export const MIGRATED_FUEL = migratedTemplate(
  'specyard_fuel',
  [fileURLToPath(new URL('../store/migrations/postgres', import.meta.url))],
  async (url) => {
    const store = await openPostgresStore(url, { maxConnections: 1 });
    await store.close();
  },
);

/** Opens an empty, migrated store of each backend: SQLite in memory, PostgreSQL in a fresh database. */
export const TEST_BACKENDS: Record<StoreBackend, () => Promise<OpenedTestStore>> = {
  sqlite: async () => {
    const store = openSqliteStore(':memory:');
    return { store, dispose: () => store.close() };
  },
  postgresql: async () => {
    const db = await createTestDatabase('specyard_fuel', MIGRATED_FUEL);
    try {
      const store = await openPostgresStore(db.url, { maxConnections: 4 });
      return {
        store,
        dispose: async () => {
          await store.close();
          await db.drop();
        },
      };
    } catch (error) {
      await db.drop();
      throw error;
    }
  },
};

export interface OpenedTestStores {
  /** Two stores on one database, each with its own connections. */
  stores: [FuelStore, FuelStore];
  dispose(): Promise<void>;
}

/** Opens two stores on one new database of each backend: SQLite in a temporary file, PostgreSQL as above. */
export const TEST_SHARED_BACKENDS: Record<StoreBackend, () => Promise<OpenedTestStores>> = {
  sqlite: async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fuel-store-'));
    const file = path.join(dir, 'fuel.db');
    const stores: [FuelStore, FuelStore] = [openSqliteStore(file), openSqliteStore(file)];
    return {
      stores,
      dispose: async () => {
        await Promise.all(stores.map((store) => store.close()));
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  postgresql: async () => {
    const db = await createTestDatabase('specyard_fuel', MIGRATED_FUEL);
    const opened: FuelStore[] = [];
    const dispose = async () => {
      await Promise.all(opened.map((store) => store.close()));
      await db.drop();
    };
    try {
      for (let i = 0; i < 2; i++) opened.push(await openPostgresStore(db.url, { maxConnections: 2 }));
      return { stores: opened as [FuelStore, FuelStore], dispose };
    } catch (error) {
      await dispose();
      throw error;
    }
  },
};

/** The rows behind a store's Feature texts (StationRowReads): every adapter keeps them for the suites. */
export function stationRows(store: FuelStore): StationRowReads {
  const rows = store as FuelStore & Partial<StationRowReads>;
  if (!rows.stationsInBox || !rows.stationsAlongLine)
    throw new Error(`the ${store.backend} store keeps no rows`);
  return rows as FuelStore & StationRowReads;
}
