import { timeLimit } from '../../common/time-limit';
import { type FuelCode, isFuelCode } from '../model/fuels';
import type { FuelStore, PriceInput, PriceList, StationInput } from '../store/store';
import { type BandLimits, DEFAULT_BAND_LIMITS, isPlausiblePrice } from './bands';
import { IdTable } from './id-table';
import { isValidLatLon } from './parse';
import { Spool } from './spool';
import type {
  BatchedFetch,
  FeedBatch,
  FeedContext,
  FetchResult,
  RawPrice,
  RawStation,
  RunLog,
  RunSummary,
  Scraper,
} from './types';

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
 * A run's usable prices as columns (a code of the document's list, inside the band): 4,000,000 price
 * objects held about three times the memory while a feed was still being read.
 */
class PriceColumns {
  readonly ids: string[] = [];
  readonly fuels: FuelCode[] = [];
  readonly values: number[] = [];
  readonly currencies: string[] = [];

  get length(): number {
    return this.ids.length;
  }

  push(price: RawPrice & { fuel: FuelCode }): void {
    this.ids.push(price.externalId);
    this.fuels.push(price.fuel);
    this.values.push(price.price);
    this.currencies.push(price.currency);
  }

  /**
   * One price per station and fuel, of the stations in `kept`: the lowest, when a feed lists self-service
   * and attended prices (the first listed of equal ones), as the store's input: each made when the store
   * asks for it, from these columns.
   */
  onePricePerFuel(country: string, kept: (id: string) => boolean): PriceList {
    const { ids, fuels, values } = this;
    let count = 0;
    const all = new Uint32Array(ids.length);
    for (let i = 0; i < ids.length; i++) if (kept(ids[i] as string)) all[count++] = i;
    const order = all.subarray(0, count);
    const compare = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
    order.sort(
      (a, b) =>
        compare(ids[a] as string, ids[b] as string) ||
        compare(fuels[a] as string, fuels[b] as string) ||
        (values[a] as number) - (values[b] as number) ||
        a - b,
    );
    let size = 0;
    for (let n = 0; n < order.length; n++) {
      const i = order[n] as number;
      const previous = order[n - 1];
      if (previous !== undefined && ids[previous] === ids[i] && fuels[previous] === fuels[i]) continue;
      order[size++] = i;
    }
    const chosen = order.subarray(0, size);
    const { currencies } = this;
    return {
      length: chosen.length,
      at: (n: number): PriceInput | undefined => {
        const i = chosen[n];
        if (i === undefined) return undefined;
        return {
          externalId: ids[i] as string,
          country,
          fuel: fuels[i] as string,
          price: values[i] as number,
          currency: currencies[i] as string,
        };
      },
    };
  }
}

/** What the fetch step keeps of a feed, read whole or part by part, before the database is touched. */
interface Intake {
  /** The parts' stations with a valid id and position, the last listing of an id within its part. */
  stations: Spool<RawStation>;
  /**
   * Per usable station id: the part of its last listing times four, plus one for a fuel station, plus two
   * once a valid price names it (`listing`, `PRICED`).
   */
  last: IdTable;
  prices: PriceColumns;
  fetchedStations: number;
  fetchedPrices: number;
  unlisted: number;
  outOfBand: number;
  invalid: number;
}

/** The most parts a feed may hand over: a listing and its two bits are kept in 31 (id-table.ts). */
export const MAX_PARTS = 2 ** 29;

/** An id's listing: the part it was last listed in, and whether as a fuel station (see Intake.last). */
export function listing(part: number, station: Pick<RawStation, 'type'>): number {
  if (part >= MAX_PARTS) throw new RangeError(`the feed handed over more than ${MAX_PARTS} parts`);
  return part * 4 + (station.type === 'fuel' ? 1 : 0);
}
const PRICED = 2;

/** Step 1, and the filters of step 2 that need no other part: every part taken as it comes. */
async function intake(
  fetched: FetchResult | BatchedFetch,
  limits: BandLimits,
  spool: Spool<RawStation>,
): Promise<Intake> {
  const taken: Intake = {
    stations: spool,
    last: new IdTable(),
    prices: new PriceColumns(),
    fetchedStations: 0,
    fetchedPrices: 0,
    unlisted: 0,
    outOfBand: 0,
    invalid: 0,
  };
  const parts: AsyncIterable<FeedBatch> | FeedBatch[] = 'batches' in fetched ? fetched.batches : [fetched];
  for await (const part of parts) {
    taken.fetchedPrices += part.prices.length;
    for (const price of part.prices) {
      // The document's list is the only list: a code it lacks could be stored but never asked for.
      if (!isFuelCode(price.fuel)) taken.unlisted++;
      else if (!isPlausiblePrice(price.price, price.fuel, price.currency, limits)) taken.outOfBand++;
      else taken.prices.push(price as RawPrice & { fuel: FuelCode });
    }
    taken.fetchedStations += part.stations.length;
    // The last listing of an id wins, as in the store; invalid positions never reach it.
    const byId = new Map<string, RawStation>();
    for (const station of part.stations) {
      if (!station.externalId || !isValidLatLon(station.lat, station.lon)) taken.invalid++;
      else byId.set(station.externalId, station);
    }
    if (byId.size === 0) continue;
    const place = spool.size;
    for (const station of byId.values()) taken.last.set(station.externalId, listing(place, station));
    spool.add([...byId.values()]);
  }
  return taken;
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
  const signal = scraper.runLimitMs ? timeLimit(scraper.runLimitMs, cancelled) : cancelled;
  const sleep = deps.sleep ?? realSleep;
  const ctx: FeedContext = {
    fetch: deps.fetch ?? globalThis.fetch,
    signal,
    sleep: (ms) => sleep(ms, signal),
    now,
    log,
  };

  const spool = new Spool<RawStation>();
  try {
    log.info(`${tag} Fetching data for ${scraper.country} ...`);
    const fetched = await scraper.fetch(ctx);
    if ('idle' in fetched && fetched.idle) {
      log.info(`${tag} Nothing to store this run: ${fetched.idle}`);
      return finish();
    }
    let taken: Intake | undefined = await intake(fetched, deps.limits ?? DEFAULT_BAND_LIMITS, spool);
    if (taken.unlisted > 0)
      log.info(`${tag} Dropped ${taken.unlisted} prices with a fuel code the API does not list`);
    if (taken.outOfBand > 0) log.info(`${tag} Filtered out ${taken.outOfBand} prices outside the price band`);
    if (taken.invalid > 0)
      log.info(`${tag} Skipped ${taken.invalid} stations without a valid id or position`);
    // Let go before the price step; the prices' columns stay.
    const { last } = taken;
    for (const id of taken.prices.ids) last.addBits(id, PRICED);
    let dropped = 0;
    for (const entry of last.values()) if ((entry & (PRICED | 1)) === 1) dropped++;
    log.info(
      `${tag} Fetched ${taken.fetchedStations} stations, ${taken.fetchedPrices} price rows` +
        (dropped > 0 ? ` (dropped ${dropped} with no prices)` : ''),
    );
    if (last.size === dropped) {
      const guard = `Aborted destructive replace: fetch returned 0 stations / ${taken.prices.length} valid prices`;
      summary.errors.push(guard);
      log.error(`${tag} ${guard}`);
      return finish();
    }

    // Step 4, part by part: each part's stations that are their id's last listing and, for fuel, priced.
    // The feed's records become the store's inputs in place.
    // The ids written, for the feed's follow-up only (10,000,000 ids of a register held about 400 MB).
    const refreshed: string[] = [];
    let written = 0;
    const failedBatches: { offset: number; size: number; message: string }[] = [];
    for (const [place, listed] of spool.lists()) {
      const stations: StationInput[] = listed
        .filter((s) => {
          const entry = last.get(s.externalId) ?? -1;
          return (entry & ~PRICED) === listing(place, s) && (s.type !== 'fuel' || (entry & PRICED) !== 0);
        })
        .map((s) =>
          Object.assign(s, { country: scraper.country, source: scraper.source, powerKw: s.powerKw ?? null }),
        );
      if (stations.length === 0) continue;
      const result = await store.upsertStations(
        stations,
        deps.batchSize ? { batchSize: deps.batchSize } : {},
      );
      summary.stations += result.count;
      for (const batch of result.failedBatches)
        failedBatches.push({ ...batch, offset: batch.offset + written });
      written += stations.length;
      if (scraper.afterRun) for (const station of stations) refreshed.push(station.externalId);
    }
    spool.close();
    for (const batch of failedBatches) {
      summary.errors.push(`Station batch ${batch.offset}-${batch.offset + batch.size}: ${batch.message}`);
    }
    log.info(`${tag} Upserted ${summary.stations} stations`);

    // The prices of the stations written: a price's station, if usable, was kept (the price is valid).
    let prices: PriceList | undefined = taken.prices.onePricePerFuel(scraper.country, (id) => last.has(id));
    last.clear();
    taken = undefined;
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
  } finally {
    spool.close();
  }
  return finish();
}
