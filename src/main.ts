/**
 * `npm start`: the three services in one process, each on its own port (SUBTITLES_PORT 8096, FUEL_PORT
 * 3000, VIEWER_PORT 8000), embedded SQLite under DATA_DIR (./data). A variable meant for one service only
 * can carry its prefix (FUEL_DATABASE_URL, ARCHIVE_DATABASE_URL); each service reads its own.
 *
 * The archive viewer never migrates its database; like the backup image at each start, this composition
 * runs the archive's migrate step first, so a fresh checkout has a working (empty) archive.
 *
 * `--first-run` (only `npm start` passes it): the first-run demo mode of `first-run.ts` when nothing is
 * configured. The image's `specyard all` runs this file without the flag. A banner at start names each
 * service's address, its state and what to do next.
 */

import { loadConfig as loadArchiveConfig, loginModes } from './archive/config';
import { start as startArchive } from './archive/main';
import { migrateArchive } from './archive/store/migrate';
import { ConfigError, type Env } from './common/env';
import { privateDir, privateFileModes } from './common/file-modes';
import { createLogger } from './common/logger';
import { closeOnSignals } from './common/serve';
import {
  type BannerLine,
  banner,
  type DemoCredentials,
  dataDirOf,
  demoEnv,
  loadDemo,
  planFirstRun,
  readDemoCredentials,
} from './first-run';
import { start as startFuel } from './fuel/main';
import { loadConfig as loadSubtitlesConfig } from './subtitles/config';
import { start as startSubtitles } from './subtitles/main';
import { databasePath, openSqliteStore } from './subtitles/store/sqlite';

interface Running {
  url: string;
  close(): Promise<void>;
}

async function subtitlesHasUsers(env: Env): Promise<boolean> {
  const store = openSqliteStore(databasePath(loadSubtitlesConfig(env).dataDir));
  try {
    return (await store.listUsers()).length > 0;
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  privateFileModes();
  // The data folder holds every database and the media: the owner's only, one made before included.
  privateDir(dataDirOf(process.env));
  const logger = createLogger('specyard');
  const plan = planFirstRun(process.env, process.argv.includes('--first-run'));
  let credentials: DemoCredentials | undefined;
  if (plan.mode === 'demo') {
    credentials = plan.seed
      ? await loadDemo(process.env, plan.dataDir, logger)
      : readDemoCredentials(plan.dataDir);
  }
  const env = credentials ? demoEnv(process.env, credentials) : process.env;
  const archiveConfig = loadArchiveConfig(env);
  await migrateArchive(archiveConfig.database, createLogger('archive'));

  const running: [string, Running][] = [];
  const lines: BannerLine[] = [];
  try {
    const subtitles = await startSubtitles(env);
    running.push(['subtitles', subtitles]);
    const hasUsers = credentials ? true : await subtitlesHasUsers(env);
    lines.push({
      service: 'subtitles',
      url: subtitles.url,
      state: credentials ? 'demo data' : hasUsers ? 'configured' : 'empty',
      next: credentials
        ? [
            `settings page: ${subtitles.url}/web/configurationpage?name=subtitles.html`,
            `log in: ${credentials.subtitles.username} / ${credentials.subtitles.password}`,
            `API key: ${credentials.subtitles.apiKey}`,
            `try: curl -H 'Authorization: MediaServer Token="${credentials.subtitles.apiKey}"' ${subtitles.url}/System/Info`,
          ]
        : hasUsers
          ? ['ready']
          : ['no user yet: npm run demo -- subtitles, or npm run subtitles -- (see README "subtitles")'],
    });

    const fuel = await startFuel(env, credentials ? { scrapers: false } : {});
    running.push(['fuel', fuel]);
    const stations = (await fuel.store.stats()).countries.reduce((sum, c) => sum + c.stations, 0);
    lines.push({
      service: 'fuel',
      url: fuel.url,
      state: credentials ? 'demo data' : stations === 0 ? 'empty' : 'configured',
      next: credentials
        ? [
            `open ${fuel.url}/ (the map), or: curl '${fuel.url}/api/stations?bbox=-3.80,40.35,-3.60,40.50&fuel=B7'`,
            'scrapers are not scheduled in demo mode (they need the network)',
          ]
        : stations === 0
          ? ['no stations yet: the scrapers fill it (network needed), or npm run demo -- fuel']
          : [`${stations} stations`],
    });

    const archive = await startArchive(env);
    running.push(['archive', archive]);
    const configured = loginModes(archive.config.auth).configured;
    lines.push({
      service: 'archive',
      url: archive.url,
      state: credentials ? 'demo data' : configured ? 'configured' : 'empty',
      next: credentials
        ? [
            `open ${archive.url}/ and log in: ${credentials.archive.username} / ${credentials.archive.password}`,
            `try: curl -c jar -H 'content-type: application/json' -d '{"username":"${credentials.archive.username}","password":"${credentials.archive.password}"}' ${archive.url}/api/login && curl -b jar ${archive.url}/api/chats`,
          ]
        : configured
          ? ['ready']
          : [
              'no login configured (every protected route answers 503): set VIEWER_USERNAME and VIEWER_PASSWORD',
            ],
    });
  } catch (error) {
    await Promise.all(running.map(([, service]) => service.close()));
    throw error;
  }
  if (plan.mode === 'normal' && process.argv.includes('--first-run'))
    logger.info({ reason: plan.reason }, 'first-run demo mode off');
  closeOnSignals(
    logger,
    ...running.map(
      ([, service]) =>
        () =>
          service.close(),
    ),
  );
  process.stdout.write(banner(lines, credentials !== undefined));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
  process.exit(1);
});
