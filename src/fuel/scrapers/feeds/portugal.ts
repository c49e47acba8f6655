import type { FuelCode } from '../../model/fuels';
import { getJson } from '../http';
import { type Bounds, clean, looseNumber, orNull, placeInBounds } from '../parse';
import type { FeedContext, FetchResult, RawPrice, RawStation, Scraper } from '../types';

/** Mainland Portugal: the islands are priced under other rules. */
const PORTUGAL: Bounds = { minLat: 36.8, maxLat: 42.2, minLon: -9.6, maxLon: -6.1 };

/** The directorate's fuel ids → fuel codes; the API answers one fuel at a time. */
export const PORTUGAL_FUELS: Record<string, FuelCode> = {
  '2101': 'B7',
  '2105': 'B7_PREMIUM',
  '3201': 'E5',
  '3205': 'E5_PREMIUM',
  '3400': 'E5_98',
  '1120': 'LPG',
  '1143': 'CNG',
};

interface PortugueseRow {
  Id?: number | string;
  Nome?: string;
  Marca?: string;
  Morada?: string;
  Localidade?: string;
  Latitude?: number | string;
  Longitude?: number | string;
  Preco?: string;
  Quantidade?: number;
}

interface PortugueseAnswer {
  status?: boolean;
  mensagem?: string;
  resultado?: PortugueseRow[] | null;
}

/** Rows of one fuel into the shared station map; the price reads `"1,679 €"`. */
export function parsePortugalRows(
  rows: PortugueseRow[],
  fuel: FuelCode,
  stations: Map<string, RawStation>,
  prices: Map<string, RawPrice>,
): void {
  for (const row of rows) {
    const id = clean(row.Id);
    if (!id) continue;
    const place = placeInBounds(looseNumber(row.Latitude), looseNumber(row.Longitude), PORTUGAL);
    if (!place) continue;
    if (!stations.has(id)) {
      stations.set(id, {
        externalId: id,
        name: clean(row.Nome) || 'Posto de abastecimento',
        brand: orNull(row.Marca),
        address: clean(row.Morada),
        city: clean(row.Localidade),
        lat: place[0],
        lon: place[1],
        type: 'fuel',
      });
    }
    const price = looseNumber(row.Preco);
    if (price !== null) prices.set(`${id}\u0000${fuel}`, { externalId: id, fuel, price, currency: 'EUR' });
  }
}

export function portugalScraper(
  url: string,
  options: { timeoutMs?: number; pageSize?: number } = {},
): Scraper<FetchResult> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pageSize = options.pageSize ?? 500;
  const fetchFuel = async (ctx: FeedContext, fuelId: string): Promise<PortugueseRow[]> => {
    const rows: PortugueseRow[] = [];
    for (let page = 1; page <= 200; page++) {
      const query = new URLSearchParams({
        idsTiposComb: fuelId,
        idMarca: '',
        idTipoPosto: '',
        idDistrito: '',
        idsMunicipios: '',
        qtdPorPagina: String(pageSize),
        pagina: String(page),
      });
      const answer = await getJson<PortugueseAnswer>(ctx, `${url}?${query}`, { timeoutMs });
      if (answer.status === false) throw new Error(`Portuguese feed answered "${clean(answer.mensagem)}"`);
      const batch = answer.resultado ?? [];
      rows.push(...batch);
      const total = batch[0]?.Quantidade ?? 0;
      if (batch.length < pageSize || rows.length >= total) break;
    }
    return rows;
  };
  return {
    key: 'PT',
    source: 'dgeg',
    country: 'PT',
    timeoutMs,
    async fetch(ctx): Promise<FetchResult> {
      const stations = new Map<string, RawStation>();
      const prices = new Map<string, RawPrice>();
      for (const [fuelId, fuel] of Object.entries(PORTUGAL_FUELS)) {
        parsePortugalRows(await fetchFuel(ctx, fuelId), fuel, stations, prices);
      }
      return { stations: [...stations.values()], prices: [...prices.values()] };
    },
  };
}
