import { withoutTrailingSlashes } from '../../../common/text';
import type { FuelCode } from '../../model/fuels';
import { FeedHttpError, getJson } from '../http';
import { type Bounds, clean, gridPoints, looseNumber, orNull, placeInBounds } from '../parse';
import type { FeedContext, FetchResult, RawPrice, RawStation, Scraper } from '../types';
import { GRID_GIVE_UP_AFTER } from './austria';

const GERMANY: Bounds = { minLat: 47.27, maxLat: 55.06, minLon: 5.87, maxLon: 15.04 };

export const NAMED_FUELS: Record<string, FuelCode> = {
  diesel: 'B7',
  'super e5': 'E5',
  'super e10': 'E10',
  'super plus': 'E5_98',
};
export const CATEGORY_FUELS: Record<string, FuelCode> = {
  diesel: 'B7',
  gasoline: 'E5',
  lpg: 'LPG',
  cng: 'CNG',
};

interface MtskStation {
  id?: string;
  name?: string;
  brand?: string;
  street?: string;
  postalCode?: string;
  place?: string;
  coords?: { lat?: number; lng?: number };
  fuels?: { category?: string; name?: string; price?: number | string | null | false }[];
}

/** The fuel code of one offer: its exact name first, then its category (premium grades fold into it). */
export function germanFuel(category: string, name: string): FuelCode | null {
  return NAMED_FUELS[clean(name).toLowerCase()] ?? CATEGORY_FUELS[clean(category).toLowerCase()] ?? null;
}

/**
 * One circle search into the shared maps. For a fuel code offered twice (a premium diesel next to the
 * plain one) the first listed offer wins, which is the plain grade in the feed's own order.
 */
export function mergeGermany(
  answer: unknown,
  stations: Map<string, RawStation>,
  prices: Map<string, RawPrice>,
): void {
  const list = (answer as { stations?: unknown })?.stations;
  if (!Array.isArray(list)) throw new Error('German fuel feed: no "stations" list');
  for (const row of list as MtskStation[]) {
    const id = clean(row.id);
    if (!id || stations.has(id)) continue;
    const place = placeInBounds(looseNumber(row.coords?.lat), looseNumber(row.coords?.lng), GERMANY);
    if (!place) continue;
    stations.set(id, {
      externalId: id,
      name: clean(row.name) || 'Tankstelle',
      brand: orNull(row.brand),
      address: [clean(row.street), clean(row.postalCode)].filter(Boolean).join(', '),
      city: clean(row.place),
      lat: place[0],
      lon: place[1],
      type: 'fuel',
    });
    for (const offer of row.fuels ?? []) {
      const fuel = germanFuel(offer.category ?? '', offer.name ?? '');
      const price = looseNumber(offer.price);
      const key = `${id}\u0000${fuel}`;
      if (fuel && price !== null && !prices.has(key))
        prices.set(key, { externalId: id, fuel, price, currency: 'EUR' });
    }
  }
}

export interface GermanyOptions {
  apiKey: string | undefined;
  timeoutMs?: number;
  /** The search radius is at most 25 km, so circles 35 km apart cover the country. */
  gridStepKm?: number;
  /** Pause between requests. */
  delayMs?: number;
  /** Pause after the feed answers 503 (its rate limit) before moving on to the next point. */
  rateLimitPauseMs?: number;
  /** Limit of the whole grid (5 minutes). */
  runLimitMs?: number;
}

export function germanyScraper(baseUrl: string, options: GermanyOptions): Scraper<FetchResult> {
  const base = withoutTrailingSlashes(baseUrl);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const points = gridPoints(GERMANY, options.gridStepKm ?? 35);
  return {
    key: 'DE',
    source: 'tankerkoenig',
    country: 'DE',
    timeoutMs,
    runLimitMs: options.runLimitMs ?? 300_000,
    async fetch(ctx: FeedContext): Promise<FetchResult> {
      if (!options.apiKey) throw new Error('APP_DE_FUEL_API_KEY not set');
      const stations = new Map<string, RawStation>();
      const prices = new Map<string, RawPrice>();
      let failed = 0;
      let answered = 0;
      let lastError: Error | undefined;
      for (const [index, [lat, lon]] of points.entries()) {
        // A feed that is down fails every circle alike: stop after a few rather than wait out the grid.
        if (failed >= GRID_GIVE_UP_AFTER && answered === 0) break;
        if (index > 0) await ctx.sleep(options.delayMs ?? 100);
        const query = new URLSearchParams({
          apikey: options.apiKey,
          lat: String(lat),
          lng: String(lon),
          rad: '25',
        });
        try {
          mergeGermany(
            await getJson(ctx, `${base}/stations/search?${query}`, { timeoutMs }),
            stations,
            prices,
          );
          answered++;
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          // A rejected key fails the whole run at once; anything else costs one circle.
          if (error instanceof FeedHttpError && (error.status === 401 || error.status === 403)) throw error;
          failed++;
          lastError = error as Error;
          if (error instanceof FeedHttpError && error.status === 503)
            await ctx.sleep(options.rateLimitPauseMs ?? 10_000);
        }
      }
      if (failed === points.length || (failed >= GRID_GIVE_UP_AFTER && answered === 0)) {
        throw lastError ?? new Error('German fuel feed: no answer');
      }
      if (failed > 0)
        ctx.log.info(
          `[tankerkoenig] ${failed} of ${points.length} circles failed; their stations may be missing`,
        );
      return { stations: [...stations.values()], prices: [...prices.values()] };
    },
  };
}
