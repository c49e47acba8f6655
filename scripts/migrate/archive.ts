// `npm run migrate -- archive`: brings the archive database (DATABASE_URL / DB_TYPE / DATABASE_PATH ...,
// or their ARCHIVE_-prefixed forms) to the newest schema.

import { parseDatabaseConfig } from '../../src/archive/store/config';
import { migrateArchive } from '../../src/archive/store/migrate';
import { scopedEnv } from '../../src/common/env';
import { createLogger } from '../../src/common/logger';

try {
  const config = parseDatabaseConfig(scopedEnv(process.env, 'ARCHIVE_'));
  const applied = await migrateArchive(config, createLogger('archive', 'info', process.stderr as never));
  for (const name of applied) console.log(`applied ${name}`);
  console.log('Database schema is up to date.');
} catch (err) {
  console.error(`Migration failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
