import type { FuelCode } from '../model/fuels';
import type { FuelStore, StationType } from '../store/store';

/** One station as a feed parser produces it, before the pipeline filters and stores it. */
export interface RawStation {
  /** The source's own id, usually with a short prefix (`ocm-…`); with the country it is the identity. */
  externalId: string;
  name: string;
  brand: string | null;
  address: string;
  city: string;
  lat: number;
  lon: number;
  type: StationType;
  /** EV chargers: highest single-connector power in kW. */
  powerKw?: number | null;
}

/** One price as a feed parser produces it: per litre (per kg for gases) in the local currency. */
export interface RawPrice {
  externalId: string;
  /** A code of the document's list; the pipeline drops any other. */
  fuel: FuelCode;
  price: number;
  currency: string;
}

/** Part of a feed: stations and their prices (a station's prices may come in any part). */
export interface FeedBatch {
  stations: RawStation[];
  prices: RawPrice[];
}

/**
 * A feed read part by part, so a large one is never held whole: the pipeline takes each part as it comes
 * and keeps only what the price step needs. An error thrown while reading is a fetch failure, and the run
 * stops before touching the database, as with a whole answer.
 */
export interface BatchedFetch {
  batches: AsyncIterable<FeedBatch>;
}

export interface FetchResult extends FeedBatch {
  /**
   * Set when the feed had nothing to hand over this run and that is not a failure (a registry whose hourly
   * request allowance is spent). The run then writes nothing and records no error.
   */
  idle?: string;
}

/** Lines a scraper writes; the pipeline prefixes none of them, so each carries its `[source]` itself. */
export interface RunLog {
  info(line: string): void;
  error(line: string): void;
}

/** What a feed needs from the outside world; every part is injectable so tests run without real time. */
export interface FeedContext {
  fetch: typeof fetch;
  /** Aborted when the run is cancelled (scheduler stopping). */
  signal: AbortSignal;
  /** Waits, or rejects early when `signal` aborts. */
  sleep(ms: number): Promise<void>;
  now(): number;
  log: RunLog;
}

/** What a feed's follow-up step (a registry handover) gets after a clean run. */
export interface AfterRunContext {
  store: FuelStore;
  log: RunLog;
  /** externalIds of the stations this run wrote. */
  refreshed: string[];
}

export interface Scraper<Fetched extends FetchResult | BatchedFetch = FetchResult | BatchedFetch> {
  /** The scheduler key (`ES`, `EV_FR`, `EV_DE_BNETZA`, `STATIC_…`). */
  readonly key: string;
  /** Stored on every row this scraper writes; its log lines start with `[source]`. */
  readonly source: string;
  readonly country: string;
  /** Per-request time limit (10 s to 5 min, by feed). */
  readonly timeoutMs: number;
  /**
   * Limit of the whole fetch step, for feeds that make many requests (a grid of searches): past it the run
   * ends with the time-out error like a single request would, instead of waiting out every request.
   */
  readonly runLimitMs?: number;
  fetch(ctx: FeedContext): Promise<Fetched>;
  /** Runs only after a run without errors; returns the errors of its own steps. */
  afterRun?(ctx: AfterRunContext): Promise<string[]>;
}

export interface RunSummary {
  key: string;
  source: string;
  country: string;
  /** Stations written by batches that succeeded. */
  stations: number;
  /** Price rows inserted. */
  prices: number;
  durationMs: number;
  errors: string[];
}
