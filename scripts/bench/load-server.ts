/**
 * The server side of the load benchmark (scripts/bench/load.ts), a child process of its own so the load
 * generator's work never counts in the servers' latency: loads the first-run demo data into a temporary
 * data folder, starts the three real servers (SQLite, response validation off as in production, logs at
 * warn), and reports `{ ready }` over IPC. On `{ scrape: n }` it serves a synthetic Spanish feed of n
 * stations (4 prices each, in the feed's own JSON form) on 127.0.0.1 and runs the ES key on the fuel
 * server's scrape thread, as the scheduler does, into the running server's database; it reports
 * `{ scraped }` with the time it took.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig as loadArchiveConfig } from '../../src/archive/config';
import { start as startArchive } from '../../src/archive/main';
import { migrateArchive } from '../../src/archive/store/migrate';
import { createLogger } from '../../src/common/logger';
import { ROOT } from '../../src/common/services';
import { demoEnv, loadDemo } from '../../src/first-run';
import { ScrapeThread } from '../../src/fuel/jobs/scrape-thread';
import { start as startFuel } from '../../src/fuel/main';
import { parseScraperConfig } from '../../src/fuel/scrapers/config';
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

/** The Spanish feed's answer with `count` stations, each a copy of the fixture's first with its own id, place and prices. */
function spanishFeed(count: number): Buffer {
  const fixture = JSON.parse(
    readFileSync(path.join(ROOT, 'src/fuel/scrapers/fixtures/es-estaciones-terrestres.json'), 'utf8'),
  ) as { Fecha: string; ListaEESSPrecio: Record<string, string>[] };
  const template = fixture.ListaEESSPrecio[0] as Record<string, string>;
  const comma = (value: number, digits: number) => value.toFixed(digits).replace('.', ',');
  const list = Array.from({ length: count }, (_, i) => ({
    ...template,
    IDEESS: String(100_000 + i),
    Rótulo: `BENCH ${i % 50}`,
    Latitud: comma(36 + ((i * 7919) % 7000) / 1000, 6),
    'Longitud (WGS84)': comma(-9 + ((i * 104729) % 12000) / 1000, 6),
    'Precio Gasoleo A': comma(1.4 + (i % 100) / 1000, 3),
    'Precio Gasolina 95 E5': comma(1.5 + (i % 100) / 1000, 3),
    'Precio Gasolina 98 E5': comma(1.6 + (i % 100) / 1000, 3),
    'Precio Gasoleo Premium': comma(1.45 + (i % 100) / 1000, 3),
  }));
  return Buffer.from(JSON.stringify({ ...fixture, ListaEESSPrecio: list }));
}

async function scrapeOnThread(count: number) {
  const body = spanishFeed(count);
  const feed = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
  const { port } = feed.address() as AddressInfo;
  const config = parseScraperConfig({
    APP_FEED_URL_ES: `http://127.0.0.1:${port}/`,
    APP_ENABLED_COUNTRIES: 'ES',
    APP_EV_ENABLED: '0',
  });
  const thread = new ScrapeThread({ config, database: fuel.config.database }, quiet('fuel'));
  try {
    const started = Date.now();
    const summary = await thread.run('ES', new AbortController().signal);
    return {
      ms: Date.now() - started,
      stations: summary.stations,
      prices: summary.prices,
      errors: summary.errors,
    };
  } finally {
    await thread.close();
    feed.close();
  }
}

process.on('message', async (message: { scrape?: number; stop?: boolean }) => {
  if (message.scrape) send({ scraped: await scrapeOnThread(message.scrape) });
  if (message.stop) {
    await Promise.all([subtitles.close(), fuel.close(), archive.close()]);
    process.exit(0);
  }
});
send({ ready: { subtitles: subtitles.url, fuel: fuel.url, archive: archive.url }, credentials });
