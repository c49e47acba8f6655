/**
 * The server side of the load benchmarks (scripts/bench/load.ts, fuel-scrape.ts), a child process of its
 * own so the load generator's work never counts in the servers' latency: the three real servers on the
 * demo data (scripts/demo-servers.ts; response validation off as in production), reporting `{ ready }`
 * over IPC. On `{ scrape: url }` it runs the ES key from the feed at that
 * address (the load generator serves a synthetic one, spanish-feed.ts) on the fuel server's scrape thread,
 * as the scheduler does, into the running server's database, and reports `{ scraped }` with the time it
 * took. With `BENCH_FUEL_STATIONS=N` in its environment, the fuel store first gets N synthetic stations
 * (fuel-data.ts) with their prices, as a country-sized archive of earlier scrapes.
 */
import { createLogger } from '../../src/common/logger';
import { ScrapeThread } from '../../src/fuel/jobs/scrape-thread';
import { parseScraperConfig } from '../../src/fuel/scrapers/config';
import { startDemoServers } from '../demo-servers';
import { dataset } from './fuel-data';

const send = (message: unknown) => process.send?.(message);
const quiet = (name: string) => createLogger(name, 'warn');
const servers = await startDemoServers();
const { fuel } = servers;
const preload = Number(process.env.BENCH_FUEL_STATIONS ?? 0);
if (preload > 0) await loadStations(preload);

/** Its own function, so the dataset's objects are gone once it returns. */
async function loadStations(count: number) {
  const data = dataset(count);
  await fuel.store.upsertStations(data.stations, { batchSize: 1000 });
  await fuel.store.replacePrices('bench', 'ES', data.prices);
  // As on a server that has run a while: the map's clusters built from what is stored.
  await fuel.store.refreshStationClusters();
}

/** Runs the ES key on a scrape thread of the fuel server's own, as the scheduler does, from the feed at `url`. */
async function scrapeOnThread(url: string) {
  const config = parseScraperConfig({
    APP_FEED_URL_ES: url,
    APP_ENABLED_COUNTRIES: 'ES',
    APP_EV_ENABLED: '0',
  });
  // The Spanish feed's time limit (60 s) covers its whole answer, which the real feed sends in seconds; a
  // synthetic feed of 1,000,000 stations (1.1 GB) takes minutes to read, and the benchmark measures the
  // server around the scrape, not the limit.
  const thread = new ScrapeThread(
    { config, database: fuel.config.database, tuning: { timeoutMs: 30 * 60_000 } },
    quiet('fuel'),
  );
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
  }
}

process.on('message', async (message: { scrape?: string; stop?: boolean }) => {
  if (message.scrape) {
    // A run that throws is reported as a failed scrape, so the benchmark stops instead of waiting.
    const scraped = await scrapeOnThread(message.scrape).catch((error: unknown) => ({
      ms: 0,
      stations: 0,
      prices: 0,
      errors: [String(error)],
    }));
    send({ scraped });
  }
  if (message.stop) {
    await servers.close();
    process.exit(0);
  }
});
send({ ready: servers.urls, credentials: servers.credentials });
