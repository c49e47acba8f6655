import { withoutTrailingSlashes } from '../../../common/text';
import type { OcmSettings } from '../config';
import { FeedHttpError, parseJson, request, retryAfterMs } from '../http';
import { clean, isValidLatLon, looseNumber, maxPowerKw, orNull } from '../parse';
import type { FeedContext, FetchResult, RawStation, Scraper } from '../types';

/** [minLat, minLon, maxLat, maxLon] */
export type Tile = [number, number, number, number];

const WORLD: Tile = [-90, -180, 90, 180];
const RETRY_WAITS_MS = [1000, 2000, 4000, 8000];
const MAX_WAIT_MS = 30_000;
/** Operator entries that name nobody. */
const NO_OPERATOR = new Set([1, 44, 45]);

/**
 * Every crowdsourced-registry request in the process goes through one gate: it shares one rate limit
 * on the registry's side. A request waits for a free slot, then pauses `tileDelayMs`; retries keep the
 * slot, so a rate-limited registry pauses all traffic until it recovers.
 */
export class OcmGate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly maxConcurrency: number,
    readonly tileDelayMs: number,
  ) {}

  async run<T>(ctx: FeedContext, task: () => Promise<T>): Promise<T> {
    if (this.active >= this.maxConcurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      if (this.tileDelayMs > 0) await ctx.sleep(this.tileDelayMs);
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

export const quarters = ([minLat, minLon, maxLat, maxLon]: Tile): Tile[] => {
  const midLat = (minLat + maxLat) / 2;
  const midLon = (minLon + maxLon) / 2;
  return [
    [midLat, minLon, maxLat, midLon],
    [midLat, midLon, maxLat, maxLon],
    [minLat, minLon, midLat, midLon],
    [minLat, midLon, midLat, maxLon],
  ];
};

interface Poi {
  ID?: number;
  OperatorInfo?: { ID?: number; Title?: string } | null;
  AddressInfo?: {
    Title?: string | null;
    AddressLine1?: string | null;
    Town?: string | null;
    Postcode?: string | null;
    Latitude?: number;
    Longitude?: number;
  } | null;
  Connections?: { PowerKW?: number | null }[] | null;
}

/** One point of interest → a charger; null when it has no id or no usable position. */
export function ocmStation(poi: Poi): RawStation | null {
  const id = poi.ID;
  const lat = looseNumber(poi.AddressInfo?.Latitude);
  const lon = looseNumber(poi.AddressInfo?.Longitude);
  if (typeof id !== 'number' || lat === null || lon === null || !isValidLatLon(lat, lon)) return null;
  const operator = poi.OperatorInfo;
  const brand = operator && !NO_OPERATOR.has(operator.ID ?? 1) ? orNull(operator.Title) : null;
  const address = poi.AddressInfo;
  return {
    externalId: `ocm-${id}`,
    name: clean(address?.Title) || `${brand ?? 'EV'} Charging`,
    brand,
    address: [clean(address?.AddressLine1), clean(address?.Postcode)].filter(Boolean).join(', '),
    city: clean(address?.Town),
    lat,
    lon,
    type: 'ev_charger',
    powerKw: maxPowerKw((poi.Connections ?? []).map((c) => c.PowerKW)),
  };
}

export interface OcmOptions {
  baseUrl: string;
  settings: OcmSettings;
  gate: OcmGate;
  timeoutMs?: number;
}

export function ocmScraper(country: string, options: OcmOptions): Scraper<FetchResult> {
  const { settings, gate } = options;
  const base = withoutTrailingSlashes(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? 60_000;

  /** One answer, retried on 429 inside the gate slot; returns the points and the active time spent. */
  const ask = async (
    ctx: FeedContext,
    tile: Tile | null,
    apiKey: string,
  ): Promise<{ pois: Poi[]; ms: number }> => {
    const query = new URLSearchParams({
      output: 'json',
      countrycode: country,
      maxresults: String(settings.maxResults),
      compact: 'false',
      verbose: 'false',
      statustypeid: '50',
      client: 'specyard-fuel',
    });
    if (tile) query.set('boundingbox', `(${tile[2]},${tile[1]}),(${tile[0]},${tile[3]})`);
    return gate.run(ctx, async () => {
      const started = ctx.now();
      for (let attempt = 0; ; attempt++) {
        try {
          const response = await request(ctx, `${base}/poi/?${query}`, {
            timeoutMs,
            headers: { 'x-api-key': apiKey },
          });
          const pois = parseJson<unknown>(await response.text(), new URL(base).host);
          if (!Array.isArray(pois)) throw new Error('OCM answer is not a list of points');
          return { pois: pois as Poi[], ms: ctx.now() - started };
        } catch (error) {
          if (!(error instanceof FeedHttpError) || error.status !== 429) throw error;
          if (attempt >= RETRY_WAITS_MS.length)
            throw new Error(`OCM HTTP 429: rate limited after ${attempt} retries`);
          const wait = retryAfterMs(error.retryAfter, ctx.now()) ?? (RETRY_WAITS_MS[attempt] as number);
          await ctx.sleep(Math.min(wait, MAX_WAIT_MS));
        }
      }
    });
  };

  return {
    key: `EV_${country}`,
    source: 'ocm',
    country,
    timeoutMs,
    async fetch(ctx): Promise<FetchResult> {
      const apiKey = settings.apiKey;
      if (!apiKey) {
        ctx.log.info('[ocm] APP_OCM_API_KEY not set, skipping');
        return { stations: [], prices: [] };
      }
      const found = new Map<number, RawStation>();
      // The first request has no box: small countries fit in one answer.
      const pending: (Tile | null)[] = [null];
      let requests = 0;
      let activeMs = 0;
      let partial: string | null = null;
      while (pending.length > 0) {
        if (requests >= settings.maxRequests) {
          partial = `request budget of ${settings.maxRequests} reached`;
          break;
        }
        if (activeMs >= settings.timeBudgetMs) {
          partial = `time budget of ${Math.round(settings.timeBudgetMs / 60000)} min reached`;
          break;
        }
        const tile = pending.shift() as Tile | null;
        const { pois, ms } = await ask(ctx, tile, apiKey);
        requests++;
        activeMs += ms;
        for (const poi of pois) {
          const station = ocmStation(poi);
          if (station && typeof poi.ID === 'number' && !found.has(poi.ID)) found.set(poi.ID, station);
        }
        const full = pois.length >= settings.maxResults;
        // The registry under-reports wide boxes, so those are split whenever they hold anything.
        const untrusted = tile !== null && tile[3] - tile[1] > settings.trustSpanDeg && pois.length > 0;
        if (!full && !untrusted) continue;
        const parent = tile ?? WORLD;
        if ((parent[3] - parent[1]) / 2 < settings.minTileDeg) {
          partial ??= 'minimum tile size reached';
          continue;
        }
        pending.push(...quarters(parent));
      }
      if (partial) ctx.log.info(`[ocm] ${country}: ${partial} — coverage may be partial`);
      return { stations: [...found.values()], prices: [] };
    },
  };
}
