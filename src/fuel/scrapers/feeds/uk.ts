import type { FuelCode } from '../../model/fuels';
import { getJson } from '../http';
import { type Bounds, clean, looseNumber, orNull, placeInBounds } from '../parse';
import type { FeedContext, FetchResult, RawPrice, RawStation, Scraper } from '../types';

/** Great Britain and Northern Ireland. */
const UNITED_KINGDOM: Bounds = { minLat: 49.8, maxLat: 61, minLon: -8.7, maxLon: 2 };

export const UK_FUELS: Record<string, FuelCode> = { E10: 'E10', E5: 'E5', B7: 'B7', SDV: 'B7_PREMIUM' };

interface RetailerStation {
  site_id?: string | number;
  brand?: string;
  address?: string;
  postcode?: string;
  location?: { latitude?: number | string; longitude?: number | string };
  prices?: Record<string, number | string | null>;
}

/**
 * Prices are published in pence per litre (`139.7`); a few feeds slip into pounds (`1.397`). 0, 1p and
 * 900p or more are placeholders.
 */
function pounds(value: unknown): number | null {
  const number = looseNumber(value);
  if (number === null || number <= 1 || number >= 900) return null;
  return number < 10 ? number : Math.round(number * 10) / 1000;
}

/** One retailer's feed into the shared maps (the first feed to list a site id keeps it). */
export function mergeRetailerFeed(
  answer: unknown,
  stations: Map<string, RawStation>,
  prices: RawPrice[],
): void {
  const list = (answer as { stations?: unknown })?.stations;
  if (!Array.isArray(list)) throw new Error('retailer feed: no "stations" list');
  for (const row of list as RetailerStation[]) {
    const id = clean(row.site_id);
    if (!id || stations.has(id)) continue;
    const place = placeInBounds(
      looseNumber(row.location?.latitude),
      looseNumber(row.location?.longitude),
      UNITED_KINGDOM,
    );
    if (!place) continue;
    const brand = orNull(row.brand);
    stations.set(id, {
      externalId: id,
      name: brand ? `${brand} ${clean(row.postcode)}`.trim() : clean(row.address) || 'Filling station',
      brand,
      address: [clean(row.address), clean(row.postcode)].filter(Boolean).join(', '),
      // The scheme's feeds have no town field.
      city: '',
      lat: place[0],
      lon: place[1],
      type: 'fuel',
    });
    for (const [code, fuel] of Object.entries(UK_FUELS)) {
      const price = pounds(row.prices?.[code]);
      if (price !== null) prices.push({ externalId: id, fuel, price, currency: 'GBP' });
    }
  }
}

export function ukScraper(feedUrls: readonly string[], timeoutMs = 20_000): Scraper<FetchResult> {
  return {
    key: 'GB',
    source: 'cma',
    country: 'GB',
    timeoutMs,
    async fetch(ctx: FeedContext): Promise<FetchResult> {
      const stations = new Map<string, RawStation>();
      const prices: RawPrice[] = [];
      const failures: Error[] = [];
      for (const url of feedUrls) {
        try {
          mergeRetailerFeed(await getJson(ctx, url, { timeoutMs }), stations, prices);
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          failures.push(error as Error);
          ctx.log.info(
            `[cma] Skipped feed ${new URL(url).host}${new URL(url).pathname}: ${(error as Error).message}`,
          );
        }
      }
      if (feedUrls.length > 0 && failures.length === feedUrls.length) throw failures[0];
      return { stations: [...stations.values()], prices };
    },
  };
}
