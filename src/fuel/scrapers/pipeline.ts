import { isFuelCode } from '../model/fuels';
import type { FuelStore, PriceInput, StationInput } from '../store/store';
import { type BandLimits, DEFAULT_BAND_LIMITS, isPlausiblePrice } from './bands';
import { isValidLatLon } from './parse';
import type { FeedContext, FetchResult, RawPrice, RawStation, RunLog, RunSummary, Scraper } from './types';

export interface RunDeps {
  store: FuelStore;
  log: RunLog;
  limits?: BandLimits;
  /** Station write batch size (default: the store's, 500). */
  batchSize?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
  /** Aborts the fetch step (the scheduler stopping). */
  signal?: AbortSignal;
  /**
   * Days of price history kept for the country after the run (`APP_PRICE_HISTORY_DAYS`, default 90); 0
   * turns the history off: no change is recorded and the country's recorded changes are deleted.
   */
  historyDays?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A pause that ends early, rejecting, when the signal aborts. */
export function realSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One price per station and fuel: the lowest, when a feed lists self-service and attended prices. Sorting
 * in place and keeping the first of each run needs no key per price, which matters at 400,000 prices.
 */
function onePricePerFuel(prices: RawPrice[]): RawPrice[] {
  prices.sort((a, b) =>
    a.externalId !== b.externalId
      ? a.externalId < b.externalId
        ? -1
        : 1
      : a.fuel !== b.fuel
        ? a.fuel < b.fuel
          ? -1
          : 1
        : a.price - b.price,
  );
  return prices.filter((p, i) => {
    const previous = prices[i - 1];
    return !previous || previous.externalId !== p.externalId || previous.fuel !== p.fuel;
  });
}

/** The last listing of an id wins, as in the store; invalid positions never reach it. */
function usableStations(stations: RawStation[]): { stations: RawStation[]; invalid: number } {
  const byId = new Map<string, RawStation>();
  let invalid = 0;
  for (const station of stations) {
    if (!station.externalId || !isValidLatLon(station.lat, station.lon)) {
      invalid++;
      continue;
    }
    byId.set(station.externalId, station);
  }
  return { stations: [...byId.values()], invalid };
}

interface Prepared {
  stations: StationInput[];
  prices: RawPrice[];
}

/** Steps 2 and 3: the price band, fuel stations left without a price, and the empty-fetch guard. */
function prepare(scraper: Scraper, fetched: FetchResult, limits: BandLimits, log: RunLog): Prepared | string {
  const tag = `[${scraper.source}]`;
  // The document's list is the only list: a code it lacks could be stored but never asked for.
  const listed = fetched.prices.filter((p) => isFuelCode(p.fuel));
  const unlisted = fetched.prices.length - listed.length;
  if (unlisted > 0) log.info(`${tag} Dropped ${unlisted} prices with a fuel code the API does not list`);
  const plausible = listed.filter((p) => isPlausiblePrice(p.price, p.fuel, p.currency, limits));
  const outOfBand = listed.length - plausible.length;
  if (outOfBand > 0) log.info(`${tag} Filtered out ${outOfBand} prices outside the price band`);

  const { stations: usable, invalid } = usableStations(fetched.stations);
  if (invalid > 0) log.info(`${tag} Skipped ${invalid} stations without a valid id or position`);
  const priced = new Set(plausible.map((p) => p.externalId));
  const kept = usable.filter((s) => s.type !== 'fuel' || priced.has(s.externalId));
  const dropped = usable.length - kept.length;
  log.info(
    `${tag} Fetched ${fetched.stations.length} stations, ${fetched.prices.length} price rows` +
      (dropped > 0 ? ` (dropped ${dropped} with no prices)` : ''),
  );
  if (kept.length === 0)
    return `Aborted destructive replace: fetch returned 0 stations / ${plausible.length} valid prices`;

  // The feed's records become the store's inputs in place: a country can hold 100,000 stations.
  const stations: StationInput[] = kept.map((s) =>
    Object.assign(s, { country: scraper.country, source: scraper.source, powerKw: s.powerKw ?? null }),
  );
  return { stations, prices: plausible };
}

/**
 * One run of one feed, the same for every feed: fetch → price band → drop fuel stations left without a
 * price → empty-fetch guard → upsert stations in batches → replace this source's prices for this country
 * in one transaction → orphan cleanup → the feed's own follow-up (registry handovers). A failure before
 * the price transaction commits leaves the previous prices in place. Large lists are let go as soon as
 * their step is done, so a 100,000-station country does not hold every copy at once.
 */
export async function runScraper(scraper: Scraper, deps: RunDeps): Promise<RunSummary> {
  const now = deps.now ?? Date.now;
  const started = now();
  const { store, log } = deps;
  const tag = `[${scraper.source}]`;
  const summary: RunSummary = {
    key: scraper.key,
    source: scraper.source,
    country: scraper.country,
    stations: 0,
    prices: 0,
    durationMs: 0,
    errors: [],
  };
  const finish = () => ({ ...summary, durationMs: Math.max(0, now() - started) });
  const cancelled = deps.signal ?? new AbortController().signal;
  const signal = scraper.runLimitMs
    ? AbortSignal.any([cancelled, AbortSignal.timeout(scraper.runLimitMs)])
    : cancelled;
  const sleep = deps.sleep ?? realSleep;
  const ctx: FeedContext = {
    fetch: deps.fetch ?? globalThis.fetch,
    signal,
    sleep: (ms) => sleep(ms, signal),
    now,
    log,
  };

  try {
    log.info(`${tag} Fetching data for ${scraper.country} ...`);
    let fetched: FetchResult | undefined = await scraper.fetch(ctx);
    if (fetched.idle) {
      log.info(`${tag} Nothing to store this run: ${fetched.idle}`);
      return finish();
    }
    let prepared: Prepared | string | undefined = prepare(
      scraper,
      fetched,
      deps.limits ?? DEFAULT_BAND_LIMITS,
      log,
    );
    fetched = undefined;
    if (typeof prepared === 'string') {
      summary.errors.push(prepared);
      log.error(`${tag} ${prepared}`);
      return finish();
    }

    const refreshed = prepared.stations.map((s) => s.externalId);
    const { count, failedBatches } = await store.upsertStations(
      prepared.stations,
      deps.batchSize ? { batchSize: deps.batchSize } : {},
    );
    summary.stations = count;
    for (const batch of failedBatches) {
      summary.errors.push(`Station batch ${batch.offset}-${batch.offset + batch.size}: ${batch.message}`);
    }
    log.info(`${tag} Upserted ${count} stations`);

    // A charger register has no prices: no set of its 1,000,000 ids for them.
    const keptIds = new Set(prepared.prices.length > 0 ? refreshed : []);
    let prices: PriceInput[] | undefined = onePricePerFuel(prepared.prices)
      .filter((p) => keptIds.has(p.externalId))
      .map((p) => Object.assign(p, { country: scraper.country }));
    prepared = undefined;
    const historyDays = deps.historyDays ?? 90;
    const replaced = await store.replacePrices(scraper.source, scraper.country, prices, {
      history: historyDays > 0,
    });
    prices = undefined;
    summary.prices = replaced.inserted;
    log.info(`${tag} Inserted ${replaced.inserted} prices`);
    const pruned = await store.prunePriceHistory(
      scraper.country,
      historyDays > 0 ? new Date(now() - historyDays * DAY_MS) : null,
    );
    if (pruned > 0 && historyDays > 0)
      log.info(`${tag} Pruned ${pruned} price changes older than ${historyDays} days`);
    if (pruned > 0 && historyDays === 0)
      log.info(`${tag} Deleted ${pruned} price changes: the price history is turned off`);

    if (failedBatches.length > 0) {
      const skipped = 'Skipped orphan cleanup: one or more station batches failed';
      summary.errors.push(skipped);
      log.error(`${tag} ${skipped}`);
      return finish();
    }
    const cleaned = await store.deleteOrphanFuelStations(scraper.country);
    if (cleaned > 0) log.info(`${tag} Cleaned up ${cleaned} stations with no prices`);

    if (scraper.afterRun) summary.errors.push(...(await scraper.afterRun({ store, log, refreshed })));
  } catch (error) {
    summary.errors.push(`Fatal: ${message(error)}`);
    log.error(`${tag} Fatal error: ${message(error)}`);
  }
  return finish();
}
