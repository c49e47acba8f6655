import { randomUUID } from 'node:crypto';
import { withoutTrailingSlashes } from '../../../common/text';
import type { FuelCode } from '../../model/fuels';
import { getJson, getText } from '../http';
import { type Bounds, clean, looseNumber, orNull, parseRssItems, placeInBounds } from '../parse';
import type { FeedContext, FetchResult, RawPrice, RawStation, Scraper } from '../types';

const AUSTRALIA: Bounds = { minLat: -44, maxLat: -10, minLon: 112, maxLon: 154 };

/**
 * Western Australia's products (one RSS feed each) → fuel codes. Unleaded 91 has a code of its own (U91);
 * premium unleaded 95 is the 95-octane petrol (E5), as in NSW.
 */
export const WA_PRODUCTS: Record<string, FuelCode> = {
  '1': 'U91',
  '2': 'E5',
  '4': 'B7',
  '5': 'LPG',
  '6': 'E5_98',
  '11': 'B7_PREMIUM',
};

/** Prices are published in cents per litre. */
const dollars = (value: unknown) => {
  const cents = looseNumber(value);
  return cents === null ? null : Math.round(cents * 10) / 1000;
};

/** One product's RSS items into the shared maps. Sites have no id: they are known by their position. */
export function mergeFuelWatch(
  xml: string,
  fuel: FuelCode,
  stations: Map<string, RawStation>,
  prices: RawPrice[],
): void {
  for (const item of parseRssItems(xml)) {
    const place = placeInBounds(looseNumber(item.latitude), looseNumber(item.longitude), AUSTRALIA);
    if (!place) continue;
    const id = `wa-${place[0].toFixed(5)}_${place[1].toFixed(5)}`;
    if (!stations.has(id)) {
      stations.set(id, {
        externalId: id,
        name: clean(item['trading-name']) || clean(item.brand) || 'Service station',
        brand: orNull(item.brand),
        address: clean(item.address),
        city: clean(item.location),
        lat: place[0],
        lon: place[1],
        type: 'fuel',
      });
    }
    const price = dollars(item.price);
    if (price !== null) prices.push({ externalId: id, fuel, price, currency: 'AUD' });
  }
}

export function westernAustraliaScraper(url: string, timeoutMs = 20_000): Scraper<FetchResult> {
  return {
    key: 'AU',
    source: 'fuelwatch_wa',
    country: 'AU',
    timeoutMs,
    async fetch(ctx: FeedContext): Promise<FetchResult> {
      const stations = new Map<string, RawStation>();
      const prices: RawPrice[] = [];
      const failures: Error[] = [];
      for (const [product, fuel] of Object.entries(WA_PRODUCTS)) {
        try {
          mergeFuelWatch(
            await getText(ctx, `${url}?Product=${product}`, { timeoutMs }),
            fuel,
            stations,
            prices,
          );
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          failures.push(error as Error);
          ctx.log.info(`[fuelwatch_wa] Skipped product ${product}: ${(error as Error).message}`);
        }
      }
      if (failures.length === Object.keys(WA_PRODUCTS).length) throw failures[0];
      return { stations: [...stations.values()], prices };
    },
  };
}

/** New South Wales fuel codes → fuel codes. B20 and E85 keep codes of their own. */
export const NSW_FUELS: Record<string, FuelCode> = {
  U91: 'U91',
  E10: 'E10',
  P95: 'E5',
  P98: 'E5_98',
  DL: 'B7',
  PDL: 'B7_PREMIUM',
  LPG: 'LPG',
  B20: 'B20',
  E85: 'E85',
};

interface NswAnswer {
  stations?: {
    code?: number | string;
    brand?: string;
    name?: string;
    address?: string;
    location?: { latitude?: number | null; longitude?: number | null };
  }[];
  prices?: { stationcode?: number | string; fueltype?: string; price?: number | string }[];
}

/** `2 Harris St, Pyrmont NSW 2009` → `Pyrmont`: the words after the last comma, before state and postcode. */
function nswTown(address: string): string {
  const comma = address.lastIndexOf(',');
  if (comma < 0) return '';
  const words = address
    .slice(comma + 1)
    .trim()
    .split(/\s+/);
  const [state, postcode] = words.slice(-2);
  const known = state === 'NSW' || state === 'ACT' || state === 'TAS';
  return words.length >= 3 && known && /^\d{4}$/.test(postcode ?? '') ? words.slice(0, -2).join(' ') : '';
}

export function parseNsw(answer: NswAnswer): FetchResult {
  if (!Array.isArray(answer.stations) || !Array.isArray(answer.prices)) {
    throw new Error('New South Wales feed: expected "stations" and "prices" lists');
  }
  const stations = new Map<string, RawStation>();
  for (const row of answer.stations) {
    const code = clean(row.code);
    const place = placeInBounds(
      looseNumber(row.location?.latitude),
      looseNumber(row.location?.longitude),
      AUSTRALIA,
    );
    if (!code || !place || stations.has(code)) continue;
    const address = clean(row.address);
    stations.set(code, {
      externalId: `nsw_${code}`,
      name: clean(row.name) || clean(row.brand) || 'Service station',
      brand: orNull(row.brand),
      address,
      city: nswTown(address),
      lat: place[0],
      lon: place[1],
      type: 'fuel',
    });
  }
  const prices: RawPrice[] = [];
  for (const row of answer.prices) {
    const code = clean(row.stationcode);
    const fuel = NSW_FUELS[clean(row.fueltype)];
    const price = dollars(row.price);
    if (stations.has(code) && fuel && price !== null)
      prices.push({ externalId: `nsw_${code}`, fuel, price, currency: 'AUD' });
  }
  return { stations: [...stations.values()], prices };
}

/** `21/04/2026 08:05:00 AM`, the request time stamp the New South Wales API asks for. */
function nswTimestamp(now: number): string {
  const d = new Date(now);
  const pad = (n: number) => String(n).padStart(2, '0');
  const hours = d.getUTCHours() % 12 || 12;
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(hours)}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${d.getUTCHours() < 12 ? 'AM' : 'PM'}`;
}

export function newSouthWalesScraper(
  baseUrl: string,
  options: { apiKey: string | undefined; apiSecret: string | undefined; timeoutMs?: number },
): Scraper<FetchResult> {
  const base = withoutTrailingSlashes(baseUrl);
  const timeoutMs = options.timeoutMs ?? 30_000;
  return {
    key: 'AU_NSW',
    source: 'nsw_fuelcheck',
    country: 'AU',
    timeoutMs,
    async fetch(ctx) {
      const { apiKey, apiSecret } = options;
      if (!apiKey || !apiSecret)
        throw new Error('APP_AU_NSW_API_KEY and APP_AU_NSW_API_SECRET must both be set');
      const basic = Buffer.from(`${apiKey}:${apiSecret}`).toString('base64');
      const token = await getJson<{ access_token?: string }>(
        ctx,
        `${base}/oauth/client_credential/accesstoken?grant_type=client_credentials`,
        { timeoutMs, headers: { authorization: `Basic ${basic}` } },
      );
      if (!token.access_token) throw new Error('New South Wales feed: no access token in the answer');
      const answer = await getJson<NswAnswer>(ctx, `${base}/FuelPriceCheck/v1/fuel/prices`, {
        timeoutMs,
        headers: {
          apikey: apiKey,
          authorization: `Bearer ${token.access_token}`,
          'content-type': 'application/json; charset=utf-8',
          transactionid: randomUUID(),
          requesttimestamp: nswTimestamp(ctx.now()),
        },
      });
      return parseNsw(answer);
    },
  };
}
