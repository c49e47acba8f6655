import { withoutTrailingSlashes } from '../../../common/text';
import type { FuelCode } from '../../model/fuels';
import { FeedHttpError, getJson, request } from '../http';
import { type Bounds, clean, looseNumber, orNull, placeInBounds } from '../parse';
import type { FeedContext, FetchResult, RawPrice, RawStation, Scraper } from '../types';

const DENMARK: Bounds = { minLat: 54.5, maxLat: 57.8, minLon: 8.0, maxLon: 15.2 };

/** Operators name their products themselves; these exact names (lower case) are known. */
export const DANISH_PRODUCTS: Record<string, FuelCode> = {
  'blyfri 95': 'E5',
  'oktan 95': 'E5',
  'benzin 95': 'E5',
  miles95: 'E5',
  'goeasy 95 extra e5': 'E5',
  'shell fuelsave blyfri 95': 'E5',
  'blyfri 95 e10': 'E10',
  'oktan 95 e10': 'E10',
  '95 e10': 'E10',
  'goeasy 95 e10': 'E10',
  'blyfri 98': 'E5_98',
  'premium 98': 'E5_98',
  'oktan 100': 'E5_PREMIUM',
  'miles+95': 'E5_PREMIUM',
  'shell v-power': 'E5_PREMIUM',
  'upgrade 95': 'E5_PREMIUM',
  diesel: 'B7',
  'miles diesel': 'B7',
  'goeasy diesel': 'B7',
  'shell fuelsave diesel': 'B7',
  'diesel+': 'B7_PREMIUM',
  dieselplus: 'B7_PREMIUM',
  'miles+ diesel': 'B7_PREMIUM',
  'goeasy diesel extra': 'B7_PREMIUM',
  'shell v-power diesel': 'B7_PREMIUM',
  hvo: 'HVO',
  hvo100: 'HVO',
  lpg: 'LPG',
  cng: 'CNG',
  adblue: 'ADBLUE',
};

/** A product name → fuel code: the exact name, then words that give it away; null when nothing fits. */
export function danishFuel(product: string): FuelCode | null {
  const name = clean(product).toLowerCase();
  const exact = DANISH_PRODUCTS[name];
  if (exact) return exact;
  if (name.includes('adblue')) return 'ADBLUE';
  if (name.includes('hvo')) return 'HVO';
  if (name.includes('diesel')) return /\+|plus|extra|v-power|premium/.test(name) ? 'B7_PREMIUM' : 'B7';
  if (/\be10\b/.test(name)) return 'E10';
  if (/\b98\b/.test(name)) return 'E5_98';
  if (/\b100\b/.test(name)) return 'E5_PREMIUM';
  if (/\b95\b/.test(name)) return 'E5';
  return null;
}

interface DanishRow {
  company?: { id?: number | string; company?: string };
  station?: {
    id?: number | string;
    name?: string;
    address?: string;
    latitude?: number | null;
    longitude?: number | null;
  };
  prices?: Record<string, string | number | null>;
}

/** `Viborgvej 130, 8210 Aarhus V` → `Aarhus V`: the town follows the four-digit postcode. */
export function danishTown(address: string): string {
  const postcode = /(?:^|\W)\d{4}\s/.exec(address);
  return postcode ? address.slice(postcode.index + postcode[0].length).trim() : '';
}

export function parseDenmark(answer: unknown): FetchResult {
  if (!Array.isArray(answer)) throw new Error('Danish fuel feed: expected a JSON array of stations');
  const stations: RawStation[] = [];
  const prices: RawPrice[] = [];
  const seen = new Set<string>();
  for (const row of answer as DanishRow[]) {
    const companyId = clean(row.company?.id);
    const stationId = clean(row.station?.id);
    // Station ids are per operator, so the operator is part of the identity.
    const id = `dk-${companyId}-${stationId}`;
    if (!companyId || !stationId || seen.has(id)) continue;
    const place = placeInBounds(
      looseNumber(row.station?.latitude),
      looseNumber(row.station?.longitude),
      DENMARK,
    );
    if (!place) continue;
    seen.add(id);
    const address = clean(row.station?.address);
    stations.push({
      externalId: id,
      name: clean(row.station?.name) || clean(row.company?.company) || 'Tankstation',
      brand: orNull(row.company?.company),
      address,
      city: danishTown(address),
      lat: place[0],
      lon: place[1],
      type: 'fuel',
    });
    const fuels = new Set<string>();
    for (const [product, value] of Object.entries(row.prices ?? {})) {
      const fuel = danishFuel(product);
      const price = looseNumber(value);
      if (!fuel || price === null || fuels.has(fuel)) continue;
      fuels.add(fuel);
      prices.push({ externalId: id, fuel, price, currency: 'DKK' });
    }
  }
  return { stations, prices };
}

export interface DenmarkOptions {
  apiKey: string | undefined;
  fallbackUrl: string;
  timeoutMs?: number;
}

export function denmarkScraper(baseUrl: string, options: DenmarkOptions): Scraper<FetchResult> {
  const base = withoutTrailingSlashes(baseUrl);
  const timeoutMs = options.timeoutMs ?? 30_000;
  /** The retired app feed the Danish source used to fall back on: it no longer answers usable data. */
  const fallback = async (ctx: FeedContext, reason: string): Promise<never> => {
    ctx.log.info(`[fuelprices_dk] ${reason}; trying the fallback feed`);
    await request(ctx, options.fallbackUrl, { timeoutMs });
    throw new Error('Danish fallback feed answered in an unknown format');
  };
  return {
    key: 'DK',
    source: 'fuelprices_dk',
    country: 'DK',
    timeoutMs,
    async fetch(ctx) {
      if (!options.apiKey) return fallback(ctx, 'APP_DK_FUEL_API_KEY not set');
      const bbox = [DENMARK.minLon, DENMARK.minLat, DENMARK.maxLon, DENMARK.maxLat].join(',');
      try {
        const answer = await getJson(ctx, `${base}/v1/stations/all?bbox=${bbox}`, {
          timeoutMs,
          headers: { 'x-api-key': options.apiKey, accept: 'application/json' },
        });
        return parseDenmark(answer);
      } catch (error) {
        if (error instanceof FeedHttpError && error.status === 401)
          return fallback(ctx, 'key rejected (HTTP 401)');
        throw error;
      }
    },
  };
}
