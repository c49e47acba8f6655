/**
 * The three real servers on the first-run demo data in a temporary data folder (SQLite, logs at warn,
 * ports chosen by the system, response validation as given), for the tools that drive them from outside:
 * the SDK smoke tests, the fuzz gate and the load benchmark.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig as loadArchiveConfig } from '../src/archive/config';
import { start as startArchive } from '../src/archive/main';
import { migrateArchive } from '../src/archive/store/migrate';
import { createLogger } from '../src/common/logger';
import type { Service } from '../src/common/services';
import { type DemoCredentials, demoEnv, loadDemo } from '../src/first-run';
import { start as startFuel } from '../src/fuel/main';
import { start as startSubtitles } from '../src/subtitles/main';

export interface DemoServers {
  urls: Record<Service, string>;
  credentials: DemoCredentials;
  dataDir: string;
  fuel: Awaited<ReturnType<typeof startFuel>>;
  close(): Promise<void>;
}

export async function startDemoServers(
  options: { validateResponses?: boolean; env?: Record<string, string> } = {},
): Promise<DemoServers> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'specyard-demo-'));
  const base = {
    ...process.env,
    DATA_DIR: dataDir,
    VALIDATE_RESPONSES: options.validateResponses ? 'true' : 'false',
    LOG_LEVEL: 'warn',
    SUBTITLES_PORT: '0',
    FUEL_PORT: '0',
    VIEWER_PORT: '0',
    ...options.env,
  };
  const quiet = (name: string) => createLogger(name, 'warn');
  const credentials = await loadDemo(base, dataDir, quiet('specyard'));
  const env = demoEnv(base, credentials);
  await migrateArchive(loadArchiveConfig(env).database, quiet('archive'));
  const subtitles = await startSubtitles(env, { logger: quiet('subtitles') });
  const fuel = await startFuel(env, { logger: quiet('fuel'), scrapers: false });
  const archive = await startArchive(env, { logger: quiet('archive') });
  return {
    urls: { subtitles: subtitles.url, fuel: fuel.url, archive: archive.url },
    credentials,
    dataDir,
    fuel,
    async close() {
      await Promise.all([subtitles.close(), fuel.close(), archive.close()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
