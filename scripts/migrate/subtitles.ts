// `npm run migrate -- subtitles`: applies the subtitles host's numbered migrations to <data>/subtitles.db.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError } from '../../src/common/env';
import { loadConfig, processEnv } from '../../src/subtitles/config';
import { databasePath, migrate } from '../../src/subtitles/store/sqlite';

try {
  const file = databasePath(loadConfig(processEnv()).dataDir);
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  const applied = migrate(db);
  db.close();
  console.log(
    applied.length === 0
      ? `${file}: up to date`
      : `${file}: applied ${applied.map((m) => `${String(m.version).padStart(3, '0')}_${m.name}`).join(', ')}`,
  );
} catch (error) {
  console.error(
    error instanceof ConfigError ? error.message : `migration failed: ${(error as Error).message}`,
  );
  process.exit(1);
}
