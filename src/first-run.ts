/**
 * The first-run demo mode of `npm start` (`src/main.ts --first-run`; nothing else passes the flag). On a
 * machine where nothing is configured and the data folder holds no database yet, it loads the demo data
 * of all three services (fuel stations and prices, the fixture archive, a subtitles administrator and API
 * key), generates the demo credentials and remembers them in `<DATA_DIR>/first-run-demo.json` (mode 0600),
 * so later `npm start`s in the same folder stay in demo mode with the same logins. Fuel scrapers, which
 * need the network, are not scheduled in demo mode.
 *
 * Never in production: the image's `specyard all` and every `<service> serve` never pass the flag, and
 * even with it any database or login setting, `NODE_ENV=production`, or a data folder holding databases
 * that the demo did not create turns demo mode off.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig as loadArchiveConfig } from './archive/config';
import { seedFixtures } from './archive/demo/dataset';
import { installFixtureFiles } from './archive/demo/files';
import { parseDatabaseConfig, SQLITE_FILE_NAME } from './archive/store/config';
import { migrateOpenStore } from './archive/store/migrate';
import { openArchiveStore } from './archive/store/open';
import { type Env, scopedEnv } from './common/env';
import type { Logger } from './common/logger';
import { demoDataset, seedDemo } from './fuel/demo/dataset';
import { openFuelStore } from './fuel/store/open';
import { loadConfig as loadSubtitlesConfig } from './subtitles/config';
import { createApiKey, createUser } from './subtitles/domain/accounts';
import { installDemoLibrary } from './subtitles/domain/demo-library';
import { databasePath, openSqliteStore } from './subtitles/store/sqlite';

export const MARKER = 'first-run-demo.json';

/** Settings that mean someone configured a service: any of them (plain or prefixed) rules demo mode out. */
const CONFIGURING = [
  'DATABASE_URL',
  'DB_TYPE',
  'DATABASE_PATH',
  'DB_PATH',
  'DATABASE_DIR',
  'VIEWER_USERNAME',
  'VIEWER_PASSWORD',
  'AUTH_PROXY_HEADER',
  'ALLOW_ANONYMOUS_VIEWER',
  'SUBTITLES_DATA_DIR',
];
const PREFIXES = ['', 'FUEL_', 'ARCHIVE_', 'SUBTITLES_'];

export interface DemoCredentials {
  archive: { username: string; password: string };
  subtitles: { username: string; password: string; apiKey: string };
}

export type FirstRunPlan =
  | { mode: 'demo'; dataDir: string; seed: boolean }
  | { mode: 'normal'; reason: string };

export const dataDirOf = (env: Env) => path.resolve(env.DATA_DIR?.trim() || './data');

/** The databases a service would open in the data folder with no configuration. */
function defaultDatabases(dataDir: string): string[] {
  return [
    path.join(dataDir, 'fuel.db'),
    path.join(dataDir, SQLITE_FILE_NAME),
    databasePath(path.join(dataDir, 'subtitles')),
  ];
}

/** Whether this start runs in demo mode, and whether it loads the demo data now. */
export function planFirstRun(env: Env, requested: boolean): FirstRunPlan {
  if (!requested) return { mode: 'normal', reason: 'not asked for (only `npm start` asks)' };
  if (env.NODE_ENV === 'production') return { mode: 'normal', reason: 'NODE_ENV=production' };
  for (const name of CONFIGURING) {
    for (const prefix of PREFIXES) {
      const value = env[prefix + name];
      if (value !== undefined && value.trim() !== '')
        return { mode: 'normal', reason: `${prefix + name} is set` };
    }
  }
  const dataDir = dataDirOf(env);
  if (existsSync(path.join(dataDir, MARKER))) return { mode: 'demo', dataDir, seed: false };
  const found = defaultDatabases(dataDir).find((file) => existsSync(file));
  if (found) return { mode: 'normal', reason: `${found} already exists` };
  return { mode: 'demo', dataDir, seed: true };
}

const secret = (bytes: number) => randomBytes(bytes).toString('base64url');

/** Loads the demo data of the three services and writes the marker with the generated credentials. */
export async function loadDemo(env: Env, dataDir: string, logger: Logger): Promise<DemoCredentials> {
  const credentials: DemoCredentials = {
    archive: { username: 'demo', password: secret(12) },
    subtitles: { username: 'admin', password: secret(12), apiKey: '' },
  };

  const fuel = await openFuelStore({ kind: 'sqlite', path: path.join(dataDir, 'fuel.db') });
  try {
    const written = await seedDemo(fuel, demoDataset(new Date()));
    logger.info(written, 'first run: fuel demo data loaded');
  } finally {
    await fuel.close();
  }

  const archive = await openArchiveStore(parseDatabaseConfig(scopedEnv(env, 'ARCHIVE_')), logger);
  try {
    await migrateOpenStore(archive, logger);
    const summary = await seedFixtures(archive);
    // The fixture archive's media as real small files under BACKUP_PATH (what `npm run demo -- archive
    // --fixtures` installs), so photos, voice notes and avatars open in the viewer.
    const files = await installFixtureFiles(loadArchiveConfig(env).media.backupPath);
    logger.info({ ...summary, files }, 'first run: archive demo data loaded');
  } finally {
    await archive.close();
  }

  const subtitlesConfig = loadSubtitlesConfig(env);
  // The web client page and a small library, as `npm run demo -- subtitles` installs them.
  const library = installDemoLibrary(subtitlesConfig);
  logger.info(library, 'first run: subtitles demo library installed');
  const subtitles = openSqliteStore(databasePath(subtitlesConfig.dataDir));
  try {
    await createUser(subtitles, {
      name: credentials.subtitles.username,
      password: credentials.subtitles.password,
      isAdmin: true,
    });
    credentials.subtitles.apiKey = (await createApiKey(subtitles, 'first-run demo')).key;
  } finally {
    await subtitles.close();
  }

  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path.join(dataDir, MARKER), `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return credentials;
}

export function readDemoCredentials(dataDir: string): DemoCredentials {
  return JSON.parse(readFileSync(path.join(dataDir, MARKER), 'utf8')) as DemoCredentials;
}

/** The environment the services start with in demo mode: the archive's password login is the demo's. */
export function demoEnv(env: Env, credentials: DemoCredentials): Env {
  return {
    ...env,
    ARCHIVE_VIEWER_USERNAME: credentials.archive.username,
    ARCHIVE_VIEWER_PASSWORD: credentials.archive.password,
  };
}

export type ServiceState = 'demo data' | 'empty' | 'configured';

export interface BannerLine {
  service: string;
  url: string;
  state: ServiceState;
  next: string[];
}

/** The start banner: each service's address, its state and what to do next. */
export function banner(lines: BannerLine[], demo: boolean): string {
  const out = [
    '',
    demo
      ? '=== specyard: FIRST-RUN DEMO MODE (demo data, generated logins; never used in production) ==='
      : '=== specyard ===',
  ];
  for (const line of lines) {
    out.push(`${line.service.padEnd(10)} ${line.url}  [${line.state}]`);
    for (const next of line.next) out.push(`           ${next}`);
  }
  if (demo) {
    out.push(
      `Demo logins are kept in ${MARKER} in the data folder; delete the data folder to start over,`,
      'or configure the services (README) to leave demo mode.',
    );
  }
  out.push('Ctrl-C stops everything.', '');
  return out.join('\n');
}
