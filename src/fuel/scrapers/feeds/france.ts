import type { FuelCode } from '../../model/fuels';
import { getJson } from '../http';
import { type Bounds, clean, looseNumber, placeInBounds } from '../parse';
import type { FetchResult, RawPrice, RawStation, Scraper } from '../types';

/** Mainland France and Corsica; the overseas departments have their own price rules. */
const FRANCE: Bounds = { minLat: 41.2, maxLat: 51.3, minLon: -5.3, maxLon: 9.7 };

/** `<fuel>_prix` fields of the open-data export → fuel codes. E85 keeps its own code: it is not E10. */
export const FRANCE_FUELS: Record<string, FuelCode> = {
  gazole_prix: 'B7',
  sp95_prix: 'E5',
  e10_prix: 'E10',
  sp98_prix: 'E5_98',
  e85_prix: 'E85',
  gplc_prix: 'LPG',
};

interface FrenchRecord {
  id?: number | string;
  latitude?: string | number | null;
  longitude?: string | number | null;
  geom?: { lon?: number; lat?: number } | null;
  adresse?: string | null;
  ville?: string | null;
  [field: string]: unknown;
}

/** Older extracts gave prices in thousandths of a euro (`1729`); today's give euros (`1.729`). */
function euros(value: unknown): number | null {
  const number = looseNumber(value);
  if (number === null) return null;
  return number >= 100 ? number / 1000 : number;
}

/** The position from `geom`, else from the PTV coordinates (degrees × 100,000). */
function position(record: FrenchRecord): [number, number] | null {
  if (record.geom && typeof record.geom.lat === 'number' && typeof record.geom.lon === 'number') {
    return placeInBounds(record.geom.lat, record.geom.lon, FRANCE);
  }
  const lat = looseNumber(record.latitude);
  const lon = looseNumber(record.longitude);
  return placeInBounds(lat === null ? null : lat / 100000, lon === null ? null : lon / 100000, FRANCE);
}

export function parseFrance(records: unknown): FetchResult {
  if (!Array.isArray(records)) throw new Error('French open-data export: expected a JSON array of stations');
  const stations: RawStation[] = [];
  const prices: RawPrice[] = [];
  const seen = new Set<string>();
  for (const record of records as FrenchRecord[]) {
    const id = clean(record.id);
    if (!id || seen.has(id)) continue;
    const place = position(record);
    if (!place) continue;
    seen.add(id);
    const city = clean(record.ville);
    stations.push({
      externalId: id,
      name: city ? `Station ${city}` : 'Station',
      brand: null,
      address: clean(record.adresse),
      city,
      lat: place[0],
      lon: place[1],
      type: 'fuel',
    });
    for (const [field, fuel] of Object.entries(FRANCE_FUELS)) {
      const price = euros(record[field]);
      if (price !== null) prices.push({ externalId: id, fuel, price, currency: 'EUR' });
    }
  }
  return { stations, prices };
}

export function franceScraper(url: string, timeoutMs = 60_000): Scraper<FetchResult> {
  return {
    key: 'FR',
    source: 'prix_carburants',
    country: 'FR',
    timeoutMs,
    async fetch(ctx) {
      return parseFrance(await getJson(ctx, url, { timeoutMs }));
    },
  };
}
