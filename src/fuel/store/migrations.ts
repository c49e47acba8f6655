import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Migration, readMigrations } from '../../common/migrations';
import type { StoreBackend } from './store';

export type { Migration } from '../../common/migrations';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The numbered migrations of a backend, in order: migrations/<backend>/NNN_name.sql. */
export function migrationsOf(backend: StoreBackend): Migration[] {
  return readMigrations(path.join(HERE, 'migrations', backend));
}
