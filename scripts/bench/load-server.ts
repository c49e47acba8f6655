/**
 * The server side of the load benchmark (scripts/bench/load.ts), a child process of its own so the load
 * generator's work never counts in the servers' latency: loads the first-run demo data into a temporary
 * data folder, starts the three real servers (SQLite, response validation off as in production, logs at
 * warn), and reports `{ ready }` over IPC. On `{ scrape: n }` it feeds a synthetic country of n fuel
 * stations (4 prices each) through the scraper pipeline into the running fuel server's store and reports
 * `{ scraped }` with the time it took.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig as loadArchiveConfig } from '../../src/archive/config';
import { start as startArchive } from '../../src/archive/main';
import { migrateArchive } from '../../src/archive/store/migrate';
import { createLogger } from '../../src/common/logger';
import { demoEnv, loadDemo } from '../../src/first-run';
import { start as startFuel } from '../../src/fuel/main';
import { runScraper } from '../../src/fuel/scrapers/pipeline';
import type { RawPrice, RawStation, Scraper } from '../../src/fuel/scrapers/types';
import { start as startSubtitles } from '../../src/subtitles/main';

const send = (message: unknown) => process.send?.(message);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'specyard-load-'));
const base = {
  ...process.env,
  DATA_DIR: dataDir,
  VALIDATE_RESPONSES: 'false',
  LOG_LEVEL: 'warn',
  SUBTITLES_PORT: '0',
  FUEL_PORT: '0',
  VIEWER_PORT: '0',
};
const quiet = (name: string) => createLogger(name, 'warn');
const credentials = await loadDemo(base, dataDir, quiet('specyard'));
const env = demoEnv(base, credentials);
await migrateArchive(loadArchiveConfig(env).database, quiet('archive'));
const subtitles = await startSubtitles(env, { logger: quiet('subtitles') });
const fuel = await startFuel(env, { logger: quiet('fuel'), scrapers: false });
const archive = await startArchive(env, { logger: quiet('archive') });

function synthetic(count: number): Scraper {
  return {
    key: 'ES',
    source: 'bench',
    country: 'ES',
    timeoutMs: 600_000,
    async fetch() {
      const stations: RawStation[] = [];
      const prices: RawPrice[] = [];
      for (let i = 0; i < count; i++) {
        const externalId = `load-${i}`;
        stations.push({
          externalId,
          name: `Estación ${i}`,
          brand: 'Bench',
          address: `Calle ${i}`,
          city: 'Madrid',
          lat: 36 + ((i * 7919) % 7000) / 1000,
          lon: -9 + ((i * 104729) % 12000) / 1000,
          type: 'fuel',
        } as RawStation);
        for (const [n, fuelType] of ['B7', 'E5', 'E10', 'LPG'].entries()) {
          prices.push({
            externalId,
            fuel: fuelType,
            price: 1.4 + n * 0.05 + (i % 100) / 1000,
            currency: 'EUR',
          } as RawPrice);
        }
      }
      return { stations, prices };
    },
  };
}

process.on('message', async (message: { scrape?: number; stop?: boolean }) => {
  if (message.scrape) {
    const started = Date.now();
    const summary = await runScraper(synthetic(message.scrape), {
      store: fuel.store,
      log: { info: () => {}, error: () => {} },
    });
    send({ scraped: { ms: Date.now() - started, stations: summary.stations, errors: summary.errors } });
  }
  if (message.stop) {
    await Promise.all([subtitles.close(), fuel.close(), archive.close()]);
    process.exit(0);
  }
});
send({ ready: { subtitles: subtitles.url, fuel: fuel.url, archive: archive.url }, credentials });
