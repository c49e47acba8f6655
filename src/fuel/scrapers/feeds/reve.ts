import { withoutTrailingSlashes } from '../../../common/text';
import { FeedHttpError, parseJson, request } from '../http';
import { type Bounds, clean, looseNumber, maxPowerKw, placeInBounds } from '../parse';
import type { AfterRunContext, FeedContext, FetchResult, RawStation, Scraper } from '../types';

const SPAIN: Bounds = { minLat: 27.4, maxLat: 44.0, minLon: -18.5, maxLon: 4.6 };
const HOUR_MS = 3_600_000;
/** The registry allows 5 requests an hour, and at most 100 locations per request. */
export const REVE_REQUESTS_PER_HOUR = 5;
const PAGE_SIZE = 100;

interface ReveLocation {
  id?: string | number;
  cpo_name?: string | null;
  owner?: string | null;
  address?: string | null;
  city?: string | null;
  postal_code?: string | null;
  coordinates?: { latitude?: string | number; longitude?: string | number };
  evses?: { connectors?: { max_electric_power?: number | null }[] }[];
}

/** `Qwello - www.qwello.es` → `Qwello`; without an owner, the operator's legal name. */
export const reveBrand = (location: ReveLocation): string | null =>
  clean(location.owner).split(' - ')[0]?.trim() || clean(location.cpo_name) || null;

export function reveStation(location: ReveLocation): RawStation | null {
  const id = clean(location.id);
  const place = placeInBounds(
    looseNumber(location.coordinates?.latitude),
    looseNumber(location.coordinates?.longitude),
    SPAIN,
  );
  if (!id || !place) return null;
  const watts = (location.evses ?? []).flatMap((evse) =>
    (evse.connectors ?? []).map((c) => c.max_electric_power),
  );
  const powerKw = maxPowerKw(watts.map((w) => (typeof w === 'number' ? w / 1000 : null)));
  const brand = reveBrand(location);
  return {
    externalId: `reve-${id}`,
    // The registry sends no name: brand and power make one a driver recognises.
    name: brand ? (powerKw ? `${brand} — ${powerKw} kW` : brand) : 'Punto de recarga',
    brand,
    address: [clean(location.address), clean(location.postal_code)].filter(Boolean).join(', '),
    city: clean(location.city),
    lat: place[0],
    lon: place[1],
    type: 'ev_charger',
    powerKw,
  };
}

/** The requests made in the last hour, so one process never asks the registry more than it allows. */
export class HourlyAllowance {
  private readonly times: number[] = [];
  constructor(readonly perHour: number = REVE_REQUESTS_PER_HOUR) {}
  remaining(now: number): number {
    while (this.times.length > 0 && (this.times[0] as number) <= now - HOUR_MS) this.times.shift();
    return Math.max(0, this.perHour - this.times.length);
  }
  spend(now: number): void {
    this.times.push(now);
  }
  /** The registry said the hour's allowance is gone: count the hour as spent. */
  exhaust(now: number): void {
    while (this.remaining(now) > 0) this.spend(now);
  }
}

export interface ReveOptions {
  baseUrl: string;
  apiKey: string | undefined;
  pagesPerRun: number;
  cutoverRatio: number;
  allowance?: HourlyAllowance;
  timeoutMs?: number;
}

/**
 * The Spanish charger registry. It cannot be read whole in one run (5 requests an hour, 100 locations
 * each), so every hourly run reads the pages the clock points to: the first page of the window is
 * (hours since 1970 × pages per run) mod total pages. Saved locations accumulate across runs.
 */
export function reveScraper(options: ReveOptions): Scraper<FetchResult> {
  const base = withoutTrailingSlashes(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const allowance = options.allowance ?? new HourlyAllowance();
  let totalPages: number | null = null;
  let totalCount: number | null = null;

  const readPage = async (ctx: FeedContext, page: number): Promise<ReveLocation[]> => {
    allowance.spend(ctx.now());
    const response = await request(ctx, `${base}/locations?page=${page}&limit=${PAGE_SIZE}`, {
      timeoutMs,
      headers: { 'x-api-key': options.apiKey ?? '', accept: 'application/json' },
    });
    const count = Number(response.headers.get('total-count'));
    const pages = Number(response.headers.get('total-pages'));
    if (Number.isFinite(count) && count > 0) totalCount = count;
    if (Number.isFinite(pages) && pages > 0) totalPages = pages;
    else if (totalCount !== null) totalPages = Math.ceil(totalCount / PAGE_SIZE);
    const body = parseJson<unknown>(await response.text(), new URL(base).host);
    if (!Array.isArray(body)) throw new Error('Spanish charger registry: expected a JSON array of locations');
    return body as ReveLocation[];
  };

  return {
    key: 'EV_ES_REVE',
    source: 'reve',
    country: 'ES',
    timeoutMs,
    async fetch(ctx): Promise<FetchResult> {
      if (!options.apiKey) throw new Error('APP_REVE_API_KEY not set');
      const found = new Map<string, RawStation>();
      const keep = (locations: ReveLocation[]) => {
        for (const location of locations) {
          const station = reveStation(location);
          if (station && !found.has(station.externalId)) found.set(station.externalId, station);
        }
      };
      let budget = Math.min(options.pagesPerRun, allowance.remaining(ctx.now()));
      const read = new Set<number>();
      let limited = budget === 0;
      try {
        if (budget > 0 && totalPages === null) {
          keep(await readPage(ctx, 1));
          read.add(1);
          budget--;
        }
        const pages = totalPages ?? 1;
        const start = (Math.floor(ctx.now() / HOUR_MS) * options.pagesPerRun) % pages;
        for (let i = 0; i < options.pagesPerRun && budget > 0; i++) {
          const page = ((start + i) % pages) + 1;
          if (read.has(page)) continue;
          keep(await readPage(ctx, page));
          read.add(page);
          budget--;
        }
      } catch (error) {
        if (!(error instanceof FeedHttpError && error.status === 429)) throw error;
        allowance.exhaust(ctx.now());
        limited = true;
      }
      if (limited) ctx.log.info('[reve] Hourly request limit reached; stopping until the next run');
      if (found.size === 0 && limited)
        return { stations: [], prices: [], idle: 'nothing fetched within the hourly limit' };
      return { stations: [...found.values()], prices: [] };
    },
    async afterRun({ store, log }: AfterRunContext): Promise<string[]> {
      if (totalCount === null) return [];
      const stored = await store.countStationsBySource('reve', 'ES');
      const share = `${stored} of ${totalCount} registry locations stored`;
      if (stored < options.cutoverRatio * totalCount) {
        log.info(`[reve] ES: ${share}; crowdsourced chargers stay until ${options.cutoverRatio * 100}%`);
        return [];
      }
      const removed = await store.deleteStationsBySource('ocm', 'ES');
      log.info(`[reve] ES: ${share}; removed ${removed} crowdsourced chargers`);
      return [];
    },
  };
}
