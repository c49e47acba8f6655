import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StoreBackend } from './store';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const MIGRATION_FILE = /^(\d{3})_([a-z0-9_]+)\.sql$/;
const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The numbered migrations of a backend, in order: migrations/<backend>/NNN_name.sql. */
export function migrationsOf(backend: StoreBackend): Migration[] {
  const dir = path.join(HERE, 'migrations', backend);
  const migrations = readdirSync(dir)
    .map((file) => ({ file, match: MIGRATION_FILE.exec(file) }))
    .filter((entry) => entry.match)
    .map(({ file, match }) => ({
      version: Number(match?.[1]),
      name: match?.[2] ?? file,
      sql: readFileSync(path.join(dir, file), 'utf8'),
    }))
    .sort((a, b) => a.version - b.version);
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`${backend} migrations must be numbered 001, 002, … without gaps`);
  });
  return migrations;
}
