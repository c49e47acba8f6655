import { fileURLToPath } from 'node:url';
import Bree from 'bree';
import type { Logger } from '../../common/logger';
import { scraperMetrics } from '../../common/metrics';
import type { ScraperConfig } from '../scrapers/config';
import { runScraper } from '../scrapers/pipeline';
import {
  allKeys,
  createScraper,
  createSharedState,
  GERMAN_REGISTRY,
  intervalHours,
  type ScraperTuning,
  SPANISH_REGISTRY,
  scheduledKeys,
} from '../scrapers/registry';
import { schedulerLine } from '../scrapers/summary';
import type { RunLog, RunSummary, Scraper } from '../scrapers/types';
import type { DatabaseLocation } from '../store/open';
import type { FuelStore } from '../store/store';
import { openKeyLock } from './key-lock';
import { ScrapeThread } from './scrape-thread';

const HOUR_MS = 3_600_000;

export interface SchedulerOptions {
  config: ScraperConfig;
  store: FuelStore;
  logger: Logger;
  /** The store's database: on PostgreSQL each key's run holds an advisory lock shared by every replica. */
  database?: DatabaseLocation;
  /** Delay before the first key's first run (10 s). */
  firstDelayMs?: number;
  /** Delay between the first runs of consecutive keys (5 s). */
  staggerMs?: number;
  /** Runs one key once; by default its scraper through the pipeline. */
  runKey?: (key: string, signal: AbortSignal) => Promise<RunSummary>;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
  tuning?: ScraperTuning;
}

export interface RunningScheduler {
  /** The keys on a timer, in start order. */
  keys: string[];
  /** Resolves once no run is in progress (every job's worker has ended). */
  idle(): Promise<void>;
  /** Clears every timer and waits for runs in progress, which are asked to stop. */
  stop(): Promise<void>;
}

/** Bree's job file: a worker that holds the job's slot while the main thread runs the key. */
const RUN_SLOT = fileURLToPath(new URL('./run-slot.mjs', import.meta.url));
const ALREADY_RUNNING = /^Job "(.+)" is already running$/;

const formatHours = (hours: number) => String(Number(hours.toFixed(4)));

/** Starts one timer per enabled key: the first 10 s after start, each next one 5 s later, then on its interval. */
export async function startScheduler(options: SchedulerOptions): Promise<RunningScheduler> {
  const { config, store, logger } = options;
  const firstDelayMs = options.firstDelayMs ?? 10_000;
  const staggerMs = options.staggerMs ?? 5_000;
  const line = (text: string) => logger.info(text);
  const log: RunLog = { info: line, error: (text) => logger.error(text) };

  const known = allKeys(config);
  for (const key of Object.keys(config.keyIntervals)) {
    if (!known.includes(key))
      logger.warn(`[scraper] APP_SCRAPE_INTERVAL_${key} names no scraper key; ignored`);
  }
  const keys = scheduledKeys(config);
  if (keys.includes(SPANISH_REGISTRY))
    line('[scraper] Spain EV: using the official registry (EV_ES_REVE) instead of EV_ES');
  if (keys.includes(GERMAN_REGISTRY))
    line('[scraper] Germany EV: using the official registry (EV_DE_BNETZA) instead of EV_DE');

  // Runs happen on the scrape thread (scrape-worker.ts), off the thread that answers HTTP, whenever the
  // store's database can be opened there too. A store given without its database (an in-memory one), or
  // feeds given fetch, sleep or clock functions, which cannot cross to another thread, run here instead.
  const database = options.database;
  const onThread =
    database !== undefined &&
    !(database.kind === 'sqlite' && database.path === ':memory:') &&
    !options.fetch &&
    !options.sleep &&
    !options.now;
  const thread =
    !options.runKey && onThread
      ? new ScrapeThread({ config, database, ...(options.tuning ? { tuning: options.tuning } : {}) }, logger)
      : undefined;
  const shared = createSharedState(config);
  // One scraper per key for the life of the scheduler: some remember what they learnt (the registry's
  // page count), and the registries' rate limits are shared through `shared`.
  const scrapers = new Map<string, Scraper | undefined>();
  const runKey =
    options.runKey ??
    (thread
      ? (key: string, signal: AbortSignal) => thread.run(key, signal)
      : (key: string, signal: AbortSignal) => {
          if (!scrapers.has(key)) scrapers.set(key, createScraper(key, config, shared, options.tuning));
          const scraper = scrapers.get(key);
          if (!scraper) throw new Error(`no scraper for key ${key}`);
          return runScraper(scraper, {
            store,
            log,
            limits: config,
            historyDays: config.priceHistoryDays,
            signal,
            ...(options.fetch ? { fetch: options.fetch } : {}),
            ...(options.sleep ? { sleep: options.sleep } : {}),
            ...(options.now ? { now: options.now } : {}),
          });
        });

  const jobs: Bree.JobOptions[] = [];
  for (const key of keys) {
    const hours = intervalHours(key, config);
    if (hours <= 0) {
      line(`[scraper] ${key}: automatic scraping disabled`);
      continue;
    }
    line(`[scraper] ${key}: scraping every ${formatHours(hours)}h`);
    jobs.push({
      name: key,
      path: RUN_SLOT,
      timeout: firstDelayMs + staggerMs * jobs.length,
      interval: Math.round(hours * HOUR_MS),
    });
  }

  const keyLock = openKeyLock(options.database);
  const task = async (key: string, signal: AbortSignal) => {
    try {
      // Replicas on one PostgreSQL database: whoever takes the key's lock scrapes it this tick, unless
      // another replica's run of it started within the interval (less a little slack for timer drift).
      const intervalMs = intervalHours(key, config) * HOUR_MS;
      const notWithinMs = intervalMs - Math.min(60_000, intervalMs / 10);
      const locked = await keyLock.run(key, () => runKey(key, signal), { notWithinMs });
      if (!locked.ran) {
        scraperMetrics.skipped(key);
        line(
          locked.reason === 'held'
            ? `[scraper] ${key}: another replica is scraping it — skipping this tick`
            : `[scraper] ${key}: scraped ${Math.round(locked.startedAgoMs / 60_000)} min ago by another replica — skipping this tick`,
        );
        return;
      }
      scraperMetrics.run(key, locked.value.errors.length, locked.value.durationMs / 1000);
      line(schedulerLine(key, locked.value));
    } catch (error) {
      // A feed that crashes outside the pipeline still never takes the process down.
      logger.error(
        `[scraper] ${key}: Fatal error: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  // Bree refuses to start a job whose worker still lives and says so through its logger: that refusal is
  // the overlap guard, written as the seed's line.
  const overlap = (args: unknown[]) => {
    const name = args[0] instanceof Error ? ALREADY_RUNNING.exec(args[0].message)?.[1] : undefined;
    if (name === undefined) return false;
    line(`[scraper] ${name}: previous run still in progress — skipping this tick`);
    return true;
  };
  const breeLogger = {
    info: (...args: unknown[]) => logger.debug({ bree: args.map(String) }, 'bree'),
    warn: (...args: unknown[]) => overlap(args) || logger.debug({ bree: args.map(String) }, 'bree'),
    error: (...args: unknown[]) => logger.error({ bree: args.map(String) }, 'bree'),
  };
  const bree = new Bree({ root: false, doRootCheck: false, logger: breeLogger, jobs });
  const runs = new Map<string, AbortController>();
  bree.on('worker created', (name: string) => {
    const worker = bree.workers.get(name);
    const controller = new AbortController();
    runs.set(name, controller);
    void task(name, controller.signal).finally(() => {
      runs.delete(name);
      worker?.postMessage('finished');
    });
  });
  const idle = () =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (bree.workers.size > 0) return;
        bree.off('worker deleted', check);
        resolve();
      };
      bree.on('worker deleted', check);
      check();
    });
  await bree.start();
  // The thread opens its own database connection now rather than at the first tick.
  if (thread && jobs.length > 0) void thread.start();

  return {
    keys: jobs.map((job) => job.name),
    idle,
    async stop() {
      // Bree clears its timers at once; its wait for the workers polls on a timer, so this waits on the
      // workers' own end instead and asks Bree again once none is left.
      void bree.stop().catch(() => undefined);
      for (const controller of runs.values()) controller.abort(new Error('Scheduler stopping'));
      await idle();
      await bree.stop();
      await thread?.close();
      await keyLock.close();
    },
  };
}
