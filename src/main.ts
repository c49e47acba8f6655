/**
 * `npm start`: the three services in one process, each on its own port (SUBTITLES_PORT 8096, FUEL_PORT
 * 3000, VIEWER_PORT 8000), embedded SQLite under DATA_DIR (./data). A variable meant for one service only
 * can carry its prefix (FUEL_DATABASE_URL, ARCHIVE_DATABASE_URL); each service reads its own.
 *
 * The archive viewer never migrates its database; like the backup image at each start, this composition
 * runs the archive's migrate step first, so a fresh checkout has a working (empty) archive.
 */

import { loadConfig as loadArchiveConfig } from './archive/config';
import { start as startArchive } from './archive/main';
import { migrateArchive } from './archive/store/migrate';
import { ConfigError } from './common/env';
import { createLogger } from './common/logger';
import { closeOnSignals } from './common/serve';
import { start as startFuel } from './fuel/main';
import { start as startSubtitles } from './subtitles/main';

interface Running {
  url: string;
  close(): Promise<void>;
}

async function main(): Promise<void> {
  const logger = createLogger('specyard');
  const env = process.env;
  await migrateArchive(loadArchiveConfig(env).database, createLogger('archive'));

  const running: [string, Running][] = [];
  try {
    running.push(['subtitles', await startSubtitles(env)]);
    running.push(['fuel', await startFuel(env)]);
    running.push(['archive', await startArchive(env)]);
  } catch (error) {
    await Promise.all(running.map(([, service]) => service.close()));
    throw error;
  }
  closeOnSignals(
    logger,
    ...running.map(
      ([, service]) =>
        () =>
          service.close(),
    ),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
  process.exit(1);
});
