/**
 * The scrape thread: every scheduled run of the server's scrapers happens here, off the thread that
 * answers HTTP. A feed's parsing and the store's writes (synchronous on SQLite) take seconds for a large
 * country; on the server's own thread they held every request for that long (`/api/config` p99 of 1.3–3 s
 * during a 100,000-station scrape, `scripts/bench/README.md`, load and soak).
 *
 * The thread has its own connection to the same database and keeps what the scrapers share and learn
 * (one scraper per key, the registries' rate limits) for the life of the scheduler, as the main thread
 * did. Messages: `{run: {id, key}}` → `{log}` lines, then `{done: {id, summary}}` or
 * `{failed: {id, message}}`; `{abort: {id, reason}}` asks a run to stop between steps; `{close: true}`
 * closes the store and ends the thread.
 */
import { readlinkSync } from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { ScraperConfig } from '../scrapers/config';
import { runScraper } from '../scrapers/pipeline';
import { createScraper, createSharedState, type ScraperTuning } from '../scrapers/registry';
import { clustersLine } from '../scrapers/summary';
import type { RunLog, RunSummary, Scraper } from '../scrapers/types';
import { type DatabaseLocation, openFuelStore } from '../store/open';

export interface ScrapeWorkerData {
  config: ScraperConfig;
  database: DatabaseLocation;
  tuning?: ScraperTuning;
}

export type ToScrapeWorker =
  | { run: { id: number; key: string } }
  | { abort: { id: number; reason: string } }
  | { close: true };

export type FromScrapeWorker =
  | { ready: true }
  | { log: { level: 'info' | 'error'; line: string } }
  | { done: { id: number; summary: RunSummary } }
  | { failed: { id: number; message: string } }
  | { closed: true };

/**
 * Background work: on Linux this thread asks the kernel for a lower priority (nice 10) than the thread that
 * answers HTTP, so that on a busy machine a scrape waits for requests rather than the other way round.
 * Elsewhere, or when the kernel refuses, it runs at the process's priority.
 */
function lowerThreadPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, 10);
  } catch {
    // Not Linux, or not allowed: the same priority as the server.
  }
}

async function serve(data: ScrapeWorkerData): Promise<void> {
  const port = parentPort;
  if (!port) return;
  lowerThreadPriority();
  const send = (message: FromScrapeWorker) => port.postMessage(message);
  // The main thread migrated the database before starting the scheduler.
  const store = await openFuelStore(data.database, { migrate: false, forScrapes: true });
  const shared = createSharedState(data.config);
  const scrapers = new Map<string, Scraper | undefined>();
  const runs = new Map<number, AbortController>();
  const log: RunLog = {
    info: (line) => send({ log: { level: 'info', line } }),
    error: (line) => send({ log: { level: 'error', line } }),
  };

  // One rebuild of the map's clusters at a time, after each run (and one for what was written before the
  // thread started); a run that ends during a rebuild asks for one more after it.
  let rebuilding: Promise<void> | undefined;
  let again = false;
  const refreshClusters = (): void => {
    if (rebuilding) {
      again = true;
      return;
    }
    rebuilding = store
      .refreshStationClusters()
      .then((clusters) => {
        if (clusters.rebuilt.length > 0) log.info(clustersLine(clusters));
      })
      .catch((error: unknown) =>
        log.error(`map clusters not rebuilt: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => {
        rebuilding = undefined;
        if (again) {
          again = false;
          refreshClusters();
        }
      });
  };

  const run = async (id: number, key: string) => {
    const controller = new AbortController();
    runs.set(id, controller);
    try {
      if (!scrapers.has(key)) scrapers.set(key, createScraper(key, data.config, shared, data.tuning));
      const scraper = scrapers.get(key);
      if (!scraper) throw new Error(`no scraper for key ${key}`);
      const summary = await runScraper(scraper, {
        store,
        log,
        limits: data.config,
        historyDays: data.config.priceHistoryDays,
        signal: controller.signal,
      });
      send({ done: { id, summary } });
    } catch (error) {
      send({ failed: { id, message: error instanceof Error ? error.message : String(error) } });
    } finally {
      runs.delete(id);
      refreshClusters();
    }
  };

  port.on('message', (message: ToScrapeWorker) => {
    if ('run' in message) void run(message.run.id, message.run.key);
    else if ('abort' in message) runs.get(message.abort.id)?.abort(new Error(message.abort.reason));
    else if ('close' in message) {
      // A rebuild cut short by the close rolls back: the cells keep the version they had.
      void store.close().finally(() => {
        send({ closed: true });
        port.close();
      });
    }
  });
  send({ ready: true });
  refreshClusters();
}

if (parentPort && (workerData as { scrapeWorker?: ScrapeWorkerData } | undefined)?.scrapeWorker) {
  await serve((workerData as { scrapeWorker: ScrapeWorkerData }).scrapeWorker);
}
