import { withoutTrailingSlashes } from '../../../common/text';
import type { FuelCode } from '../../model/fuels';
import { getJson, mapLimited } from '../http';
import { type Bounds, clean, gridPoints, looseNumber, placeInBounds } from '../parse';
import type { FeedContext, FetchResult, RawPrice, RawStation, Scraper } from '../types';

const AUSTRIA: Bounds = { minLat: 46.37, maxLat: 49.02, minLon: 9.53, maxLon: 17.16 };

/** The regulator's fuel types → fuel codes. `GAS` is compressed natural gas (Erdgas), not E10. */
export const AUSTRIA_FUELS: Record<string, FuelCode> = { DIE: 'B7', SUP: 'E5', GAS: 'CNG' };

interface ControlStation {
  id?: number | string;
  name?: string;
  location?: { address?: string; postalCode?: string; city?: string; latitude?: number; longitude?: number };
  prices?: { fuelType?: string; amount?: number | string }[];
}

/**
 * One "near this point" answer into the shared maps. Stations show up in many neighbouring answers;
 * for each fuel the cheapest price seen wins (all are the same station's current price in practice).
 */
export function mergeAustria(
  answer: unknown,
  stations: Map<string, RawStation>,
  prices: Map<string, RawPrice>,
): void {
  if (!Array.isArray(answer)) throw new Error('Austrian regulator feed: expected a JSON array');
  for (const row of answer as ControlStation[]) {
    const id = clean(row.id);
    const place = placeInBounds(
      looseNumber(row.location?.latitude),
      looseNumber(row.location?.longitude),
      AUSTRIA,
    );
    if (!id || !place) continue;
    if (!stations.has(id)) {
      stations.set(id, {
        externalId: id,
        name: clean(row.name) || 'Tankstelle',
        brand: null,
        address: [clean(row.location?.address), clean(row.location?.postalCode)].filter(Boolean).join(', '),
        city: clean(row.location?.city),
        lat: place[0],
        lon: place[1],
        type: 'fuel',
      });
    }
    for (const entry of row.prices ?? []) {
      const fuel = AUSTRIA_FUELS[clean(entry.fuelType)];
      const price = looseNumber(entry.amount);
      if (!fuel || price === null) continue;
      const key = `${id}\u0000${fuel}`;
      const known = prices.get(key);
      if (!known || price < known.price) prices.set(key, { externalId: id, fuel, price, currency: 'EUR' });
    }
  }
}

export interface AustriaOptions {
  timeoutMs?: number;
  /** Distance between query points; the regulator answers only the nearest stations of a point. */
  gridStepKm?: number;
  concurrency?: number;
  /** Limit of the whole grid (5 minutes). */
  runLimitMs?: number;
}

/** Failed requests, with no answer yet, after which the feed counts as down and the run stops. */
export const GRID_GIVE_UP_AFTER = 4;

export function austriaScraper(baseUrl: string, options: AustriaOptions = {}): Scraper<FetchResult> {
  const base = withoutTrailingSlashes(baseUrl);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const points = gridPoints(AUSTRIA, options.gridStepKm ?? 15);
  return {
    key: 'AT',
    source: 'econtrol',
    country: 'AT',
    timeoutMs,
    runLimitMs: options.runLimitMs ?? 300_000,
    async fetch(ctx: FeedContext): Promise<FetchResult> {
      const stations = new Map<string, RawStation>();
      const prices = new Map<string, RawPrice>();
      const queries = Object.keys(AUSTRIA_FUELS).flatMap((fuelType) =>
        points.map((point) => ({ fuelType, point })),
      );
      const failures: Error[] = [];
      let answered = 0;
      // A feed that is down fails every request alike: stop after a few rather than wait out the grid.
      const down = () => answered === 0 && failures.length >= GRID_GIVE_UP_AFTER;
      await mapLimited(queries, options.concurrency ?? 2, async ({ fuelType, point }) => {
        if (down()) return;
        const query = new URLSearchParams({
          latitude: String(point[0]),
          longitude: String(point[1]),
          fuelType,
          includeClosed: 'false',
        });
        try {
          const answer = await getJson(ctx, `${base}/search/gas-stations/by-address?${query}`, { timeoutMs });
          mergeAustria(answer, stations, prices);
          answered++;
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          failures.push(error as Error);
        }
      });
      if (down() || failures.length === queries.length)
        throw failures[0] ?? new Error('Austrian regulator feed: no answer');
      if (failures.length > 0) {
        ctx.log.info(
          `[econtrol] ${failures.length} of ${queries.length} grid requests failed; their stations may be missing`,
        );
      }
      return { stations: [...stations.values()], prices: [...prices.values()] };
    },
  };
}
