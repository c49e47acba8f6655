/**
 * The command line scraper tool: `npm run scrape -- --country=ES` (also `npm run fuel -- scrape …`).
 * Runs the named keys once, one after another, against the configured database, then prints a summary.
 */
import type { Env } from '../../common/env';
import { loadFuelConfig } from '../config';
import { openKeyLock } from '../jobs/key-lock';
import type { ScraperConfig } from '../scrapers/config';
import { runScraper } from '../scrapers/pipeline';
import {
  chooseChargerSources,
  commandLineKeys,
  createScraper,
  createSharedState,
  type ScraperTuning,
} from '../scrapers/registry';
import { clustersLine, summaryBlock } from '../scrapers/summary';
import type { RunLog, RunSummary } from '../scrapers/types';
import { type DatabaseLocation, openFuelStore } from '../store/open';
import type { FuelStore } from '../store/store';

export interface ScrapeCommandDeps {
  /** Where settings come from (default: the process environment, read through the fuel config). */
  env?: Env;
  config?: { database: DatabaseLocation; scrapers: ScraperConfig };
  /** An open store to use (and leave open); otherwise the configured one is opened and closed. */
  store?: FuelStore;
  out?: (line: string) => void;
  err?: (line: string) => void;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
  tuning?: ScraperTuning;
}

export const SCRAPE_USAGE = 'usage: npm run scrape -- --country=<KEY[,KEY…]|all> [--once]';

/** The keys to run, in order: `all`, or a comma-separated list (any case); `AU` brings New South Wales. */
export function resolveKeys(
  argument: string,
  config: ScraperConfig,
): { keys: string[] } | { unknown: string; supported: string[] } {
  const supported = commandLineKeys(config);
  const requested =
    argument.trim().toLowerCase() === 'all'
      ? chooseChargerSources(supported, config)
      : argument
          .split(',')
          .map((key) => key.trim().toUpperCase())
          .filter((key) => key !== '');
  const keys: string[] = [];
  for (const key of requested) {
    if (!supported.includes(key)) return { unknown: key, supported };
    for (const expanded of key === 'AU' ? ['AU', 'AU_NSW'] : [key]) {
      if (!keys.includes(expanded)) keys.push(expanded);
    }
  }
  return { keys };
}

/** Runs the tool and returns its exit status: 0 when every source succeeded, 1 otherwise. */
export async function runScrapeCommand(
  input: { country?: string | undefined },
  deps: ScrapeCommandDeps = {},
): Promise<number> {
  const out = deps.out ?? ((line: string) => console.log(line));
  const err = deps.err ?? ((line: string) => console.error(line));
  const argument = input.country;
  if (!argument) {
    err(SCRAPE_USAGE);
    return 1;
  }
  const config = deps.config ?? loadFuelConfig(deps.env ?? process.env);
  const resolved = resolveKeys(argument, config.scrapers);
  if ('unknown' in resolved) {
    err(`Unknown country "${resolved.unknown}". Supported: ${resolved.supported.join(', ')}, all`);
    return 1;
  }

  const store = deps.store ?? (await openFuelStore(config.database));
  const log: RunLog = { info: out, error: err };
  const shared = createSharedState(config.scrapers);
  const summaries: RunSummary[] = [];
  // The same per-key lock as the scheduler's: a key a server replica is scraping waits for it to finish.
  const keyLock = openKeyLock(config.database);
  try {
    out(`Scraping ${resolved.keys.join(', ')}`);
    for (const key of resolved.keys) {
      const scraper = createScraper(key, config.scrapers, shared, deps.tuning);
      if (!scraper) continue;
      const locked = await keyLock.run(
        key,
        () =>
          runScraper(scraper, {
            store,
            log,
            limits: config.scrapers,
            historyDays: config.scrapers.priceHistoryDays,
            ...(deps.fetch ? { fetch: deps.fetch } : {}),
            ...(deps.sleep ? { sleep: deps.sleep } : {}),
            ...(deps.now ? { now: deps.now } : {}),
          }),
        {
          wait: true,
          onWait: () => out(`${key}: another process is scraping it; waiting for it to finish ...`),
        },
      );
      if (locked.ran) summaries.push(locked.value);
    }
    // The map's low zooms from the new prices at once, rather than from every station until a server's
    // scrape thread rebuilds them.
    const clusters = await store.refreshStationClusters();
    if (clusters.rebuilt.length > 0) out(clustersLine(clusters));
  } finally {
    await keyLock.close();
    if (!deps.store) await store.close();
  }

  out('');
  out('=== Summary ===');
  for (const summary of summaries) for (const line of summaryBlock(summary)) out(line);
  const failed = summaries.filter((s) => s.errors.length > 0);
  out('');
  out(
    failed.length === 0
      ? `All ${summaries.length} sources succeeded.`
      : `${failed.length} of ${summaries.length} sources failed: ${failed.map((s) => s.key).join(', ')}`,
  );
  return failed.length === 0 ? 0 : 1;
}
