import { createTestDatabase } from '../../common/testing/postgres';
import { openPostgresStore } from '../store/postgres';
import { openSqliteStore } from '../store/sqlite';
import type { FuelStore, StoreBackend } from '../store/store';

export interface OpenedTestStore {
  store: FuelStore;
  /** Closes the store and removes its database. */
  dispose(): Promise<void>;
}

/** Opens an empty, migrated store of each backend: SQLite in memory, PostgreSQL in a fresh database. */
export const TEST_BACKENDS: Record<StoreBackend, () => Promise<OpenedTestStore>> = {
  sqlite: async () => {
    const store = openSqliteStore(':memory:');
    return { store, dispose: () => store.close() };
  },
  postgresql: async () => {
    const db = await createTestDatabase('specyard_fuel');
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
