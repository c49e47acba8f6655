import { decodeText, getBytes } from '../http';
import { type Bounds, clean, looseNumber, placeInBounds } from '../parse';
import type { FetchResult, RawPrice, RawStation, Scraper } from '../types';

const ITALY: Bounds = { minLat: 35.2, maxLat: 47.2, minLon: 6.5, maxLon: 18.6 };

const REGISTRY_COLUMNS = [
  'idImpianto',
  'Gestore',
  'Bandiera',
  'Tipo Impianto',
  'Nome Impianto',
  'Indirizzo',
  'Comune',
  'Provincia',
  'Latitudine',
  'Longitudine',
];
const PRICE_COLUMNS = ['idImpianto', 'descCarburante', 'prezzo', 'isSelf', 'dtComu'];
/** The one registry column whose text may hold an unescaped separator. */
const FREE_TEXT_COLUMN = REGISTRY_COLUMNS.indexOf('Nome Impianto');

const EXACT_FUELS: Record<string, string> = {
  benzina: 'E5',
  'benzina speciale': 'E5_PREMIUM',
  'blue super': 'E5_PREMIUM',
  'hiq perform+': 'E5_PREMIUM',
  gasolio: 'B7',
  'gasolio alpino': 'B7',
  'gasolio speciale': 'B7_PREMIUM',
  'gasolio premium': 'B7_PREMIUM',
  'hiq diesel': 'B7_PREMIUM',
  'blue diesel': 'B7_PREMIUM',
  gpl: 'LPG',
  metano: 'CNG',
  'l-gnc': 'CNG',
  gnl: 'LNG',
};

const PREMIUM_WORDS = /speciale|premium|blue|hiq|hi-q|supreme|excellium|plus|oro|\+/;

/** The ministry's fuel name → fuel code: exact names first, then keywords; null for anything else. */
export function italianFuel(name: string): string | null {
  const word = clean(name).toLowerCase();
  const exact = EXACT_FUELS[word];
  if (exact) return exact;
  if (/gnl|lng/.test(word)) return 'LNG';
  if (/metano|gnc|cng/.test(word)) return 'CNG';
  if (/gpl/.test(word)) return 'LPG';
  if (/gasolio|diesel/.test(word)) return PREMIUM_WORDS.test(word) ? 'B7_PREMIUM' : 'B7';
  if (/benzina|super/.test(word)) {
    if (/\b(98|100)\b/.test(word)) return 'E5_98';
    return PREMIUM_WORDS.test(word) ? 'E5_PREMIUM' : 'E5';
  }
  return null;
}

/**
 * One of the two files: an `Estrazione del …` line, then the header, then rows. The separator is `|`
 * (it was `;` before February 2026); free text may contain it unescaped, so extra cells are glued back
 * into the column that can hold them.
 */
export function readMinistryCsv(text: string, expected: string[], freeTextColumn = -1): string[][] {
  const lines = text.split(/\r?\n/);
  const headerIndex = lines.findIndex((line) => line.startsWith('idImpianto'));
  if (headerIndex < 0) throw new Error(`Italian ministry file: no header line starting with idImpianto`);
  const headerLine = lines[headerIndex] as string;
  const separator = headerLine.includes('|') ? '|' : ';';
  const header = headerLine.split(separator).map((cell) => cell.trim());
  if (expected.some((column, index) => header[index] !== column)) {
    throw new Error(`Italian ministry file: unexpected header "${headerLine}"`);
  }
  const rows: string[][] = [];
  for (const line of lines.slice(headerIndex + 1)) {
    if (line.trim() === '') continue;
    let cells = line.split(separator);
    const extra = cells.length - header.length;
    if (extra > 0 && freeTextColumn >= 0) {
      const merged = cells.slice(freeTextColumn, freeTextColumn + extra + 1).join(separator);
      cells = [...cells.slice(0, freeTextColumn), merged, ...cells.slice(freeTextColumn + extra + 1)];
    }
    if (cells.length !== header.length) continue;
    rows.push(cells);
  }
  return rows;
}

export function parseItaly(registryText: string, pricesText: string): FetchResult {
  const stations = new Map<string, RawStation>();
  for (const cells of readMinistryCsv(registryText, REGISTRY_COLUMNS, FREE_TEXT_COLUMN)) {
    const [id, , flag, , name, address, city, , lat, lon] = cells.map(clean);
    if (!id || stations.has(id)) continue;
    const place = placeInBounds(looseNumber(lat), looseNumber(lon), ITALY);
    if (!place) continue;
    stations.set(id, {
      externalId: id,
      name: name || 'Distributore',
      brand: flag && flag.toLowerCase() !== 'pompe bianche' ? flag : null,
      address: address ?? '',
      city: city ?? '',
      lat: place[0],
      lon: place[1],
      type: 'fuel',
    });
  }
  const prices: RawPrice[] = [];
  for (const cells of readMinistryCsv(pricesText, PRICE_COLUMNS)) {
    const [id, fuelName, priceText] = cells.map(clean);
    if (!id || !stations.has(id)) continue;
    const fuel = italianFuel(fuelName ?? '');
    const price = looseNumber(priceText);
    if (fuel && price !== null) prices.push({ externalId: id, fuel, price, currency: 'EUR' });
  }
  return { stations: [...stations.values()], prices };
}

export function italyScraper(baseUrl: string, timeoutMs = 60_000): Scraper {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    key: 'IT',
    source: 'mimit',
    country: 'IT',
    timeoutMs,
    async fetch(ctx) {
      const registry = await getBytes(ctx, `${base}/anagrafica_impianti_attivi.csv`, { timeoutMs });
      const prices = await getBytes(ctx, `${base}/prezzo_alle_8.csv`, { timeoutMs });
      return parseItaly(decodeText(registry), decodeText(prices));
    },
  };
}
