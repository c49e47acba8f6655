import type { FuelCode } from '../../model/fuels';
import { getJson } from '../http';
import { type Bounds, clean, looseNumber, orNull, placeInBounds } from '../parse';
import type { FetchResult, RawPrice, RawStation, Scraper } from '../types';

/** Mainland, the Balearic and Canary Islands, Ceuta and Melilla. */
const SPAIN: Bounds = { minLat: 27.4, maxLat: 44.0, minLon: -18.5, maxLon: 4.6 };

/** The ministry's price fields → fuel codes: every product it publishes has one. */
export const SPAIN_FUELS: Record<string, FuelCode> = {
  'Precio Gasoleo A': 'B7',
  'Precio Gasoleo Premium': 'B7_PREMIUM',
  'Precio Gasoleo B': 'B_AGRICULTURAL',
  'Precio Biodiesel': 'B100',
  'Precio Diésel Renovable': 'HVO',
  'Precio Gasolina 95 E5': 'E5',
  'Precio Gasolina 95 E5 Premium': 'E5_PREMIUM',
  'Precio Gasolina 95 E10': 'E10',
  'Precio Gasolina 98 E5': 'E5_98',
  'Precio Gasolina 98 E10': 'E98_E10',
  'Precio Gasolina Renovable': 'E5_RENEWABLE',
  'Precio Gasolina 95 E25': 'E25',
  'Precio Gasolina 95 E85': 'E85',
  'Precio Bioetanol': 'E100',
  'Precio Gases licuados del petróleo': 'LPG',
  'Precio Gas Licuado del Petróleo': 'LPG',
  'Precio Gas Natural Comprimido': 'CNG',
  'Precio Gas Natural Licuado': 'LNG',
  'Precio Biogas Natural Comprimido': 'BIO_CNG',
  'Precio Biogas Natural Licuado': 'BIO_LNG',
  'Precio Amoniaco': 'NH3',
  'Precio Metanol': 'M100',
  'Precio Hidrogeno': 'H2',
  'Precio Adblue': 'ADBLUE',
};

interface MinistryStation {
  IDEESS?: string;
  Rótulo?: string;
  Dirección?: string;
  Localidad?: string;
  Latitud?: string;
  'Longitud (WGS84)'?: string;
  [field: string]: unknown;
}

interface MinistryAnswer {
  ResultadoConsulta?: string;
  ListaEESSPrecio?: MinistryStation[];
}

/** The ministry's answer → stations and prices. All numbers arrive as text with a decimal comma. */
export function parseSpain(answer: MinistryAnswer): FetchResult {
  if (answer.ResultadoConsulta !== 'OK') {
    throw new Error(`Spanish ministry feed answered "${clean(answer.ResultadoConsulta) || 'no result'}"`);
  }
  if (!Array.isArray(answer.ListaEESSPrecio)) throw new Error('Spanish ministry feed: no station list');
  const stations: RawStation[] = [];
  const prices: RawPrice[] = [];
  const seen = new Set<string>();
  for (const row of answer.ListaEESSPrecio) {
    const id = clean(row.IDEESS);
    if (!id || seen.has(id)) continue;
    const place = placeInBounds(looseNumber(row.Latitud), looseNumber(row['Longitud (WGS84)']), SPAIN);
    if (!place) continue;
    seen.add(id);
    const brand = orNull(row.Rótulo);
    stations.push({
      externalId: id,
      name: brand ?? 'Gasolinera',
      brand,
      address: clean(row.Dirección),
      city: clean(row.Localidad),
      lat: place[0],
      lon: place[1],
      type: 'fuel',
    });
    for (const [field, fuel] of Object.entries(SPAIN_FUELS)) {
      const price = looseNumber(row[field]);
      if (price !== null) prices.push({ externalId: id, fuel, price, currency: 'EUR' });
    }
  }
  return { stations, prices };
}

export function spainScraper(url: string, timeoutMs = 60_000): Scraper {
  return {
    key: 'ES',
    source: 'miteco',
    country: 'ES',
    timeoutMs,
    async fetch(ctx) {
      return parseSpain(
        await getJson<MinistryAnswer>(ctx, url, { timeoutMs, headers: { accept: 'application/json' } }),
      );
    },
  };
}
