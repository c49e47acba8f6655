import { withoutTrailingSlashes } from '../../../common/text';
import type { FuelCode } from '../../model/fuels';
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
/** The values of `Tipo Impianto`: the one cell between the two free-text columns that is known by content. */
const SITE_TYPES = /^(Stradale|Autostradale|Altro)$/i;

const EXACT_FUELS: Record<string, FuelCode> = {
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
  hvo: 'HVO',
};

/** Every code the ministry's names map to. */
export const ITALY_FUELS: readonly FuelCode[] = [
  ...new Set([...Object.values(EXACT_FUELS), 'E5_98' as const]),
];

const PREMIUM_WORDS =
  /speciale|premium|blue?\b|hiq|hi-q|supreme|excellium|plus|oro|v[- ]?power|prestazional|\+/;

/** The ministry's fuel name → fuel code: exact names first, then keywords; null for anything else. */
export function italianFuel(name: string): FuelCode | null {
  const word = clean(name).toLowerCase();
  const exact = EXACT_FUELS[word];
  if (exact) return exact;
  // Renewable diesel under any brand (HVOlution, HVO100, Gasolio HVO, REHVO…) is not diesel's price.
  if (/hvo/.test(word)) return 'HVO';
  if (/gnl|lng/.test(word)) return 'LNG';
  if (/metano|gnc|cng/.test(word)) return 'CNG';
  if (/gpl/.test(word)) return 'LPG';
  if (/gasolio|diesel/.test(word)) return PREMIUM_WORDS.test(word) ? 'B7_PREMIUM' : 'B7';
  if (/benzina|super|verde|v[- ]?power|perform|^f-?101$/.test(word)) {
    if (/(^|\D)(98|100|101|102)(\D|$)/.test(word)) return 'E5_98';
    return PREMIUM_WORDS.test(word) ? 'E5_PREMIUM' : 'E5';
  }
  return null;
}

/**
 * One of the two files: an `Estrazione del …` line, then the header, then rows, split on `|` (it was `;`
 * before February 2026). Rows are returned as cells; a row with more cells than the header is left for
 * the caller, who knows which columns are free text.
 */
export function readMinistryCsv(text: string, expected: string[]): string[][] {
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
    const cells = line.split(separator);
    if (cells.length >= header.length) rows.push(cells);
  }
  return rows;
}

/**
 * The registry's ten columns from a row of any length. Operator (`Gestore`) and name (`Nome Impianto`)
 * are free text and either may hold an unescaped `|`; the columns after the name hold none. So the last
 * five cells are the address to the longitude, the site type is found by its value, the brand is the cell
 * before it, and what lies between the id and the brand is the operator, between the type and the
 * address the name. Null when no cell reads as a site type.
 */
export function registryColumns(cells: string[]): string[] | null {
  const tail = cells.length - 5;
  if (cells.length === REGISTRY_COLUMNS.length) return cells;
  // The type is searched from the left: a name never precedes it, an operator's text rarely reads as one.
  let typeIndex = -1;
  for (let i = 3; i < tail; i++) {
    if (SITE_TYPES.test((cells[i] as string).trim())) {
      typeIndex = i;
      break;
    }
  }
  if (typeIndex < 0) return null;
  return [
    cells[0] as string,
    cells.slice(1, typeIndex - 1).join('|'),
    cells[typeIndex - 1] as string,
    cells[typeIndex] as string,
    cells.slice(typeIndex + 1, tail).join('|'),
    ...cells.slice(tail),
  ];
}

export function parseItaly(registryText: string, pricesText: string): FetchResult {
  const stations = new Map<string, RawStation>();
  for (const row of readMinistryCsv(registryText, REGISTRY_COLUMNS)) {
    const cells = registryColumns(row);
    if (!cells) continue;
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
  const extracted = extractionDay(pricesText);
  const oldest = extracted === null ? -Infinity : extracted - YEAR_MS;
  const rows: { price: RawPrice; at: number | null }[] = [];
  // Per station and fuel, the time of its newest price.
  const newest = new Map<string, number>();
  for (const cells of readMinistryCsv(pricesText, PRICE_COLUMNS)) {
    if (cells.length !== PRICE_COLUMNS.length) continue;
    const [id, fuelName, priceText, , sentAt] = cells.map(clean);
    if (!id || !stations.has(id)) continue;
    const fuel = italianFuel(fuelName ?? '');
    const price = looseNumber(priceText);
    if (!fuel || price === null) continue;
    const at = communicatedAt(sentAt ?? '');
    // A price last communicated more than a year before the extraction is no current price.
    if (at !== null && at < oldest) continue;
    rows.push({ price: { externalId: id, fuel, price, currency: 'EUR' }, at });
    const key = `${id} ${fuel}`;
    if (at !== null && at > (newest.get(key) ?? -Infinity)) newest.set(key, at);
  }
  // Several product names map to one fuel, and the ministry keeps listing a product a station stopped
  // selling with its last price (a "Gasolio artico" of months ago beside the station's "Gasolio" of this
  // week), which would pass for the cheapest diesel: a price communicated more than SUPERSEDED_MS before
  // the station's newest price for the same fuel is left out. Within that window self-service and attended
  // prices (often sent on different days) both stay, and the pipeline keeps the lowest.
  const prices = rows
    .filter(
      ({ price, at }) =>
        at === null || at >= (newest.get(`${price.externalId} ${price.fuel}`) ?? at) - SUPERSEDED_MS,
    )
    .map(({ price }) => price);
  return { stations: [...stations.values()], prices };
}

const DAY_MS = 86_400_000;
const YEAR_MS = 365 * DAY_MS;
const SUPERSEDED_MS = 30 * DAY_MS;

/** `Estrazione del 2026-08-21` on the file's first line → that day (ms, as UTC); null without it. */
function extractionDay(text: string): number | null {
  const day = /^\s*Estrazione del (\d{4})-(\d\d)-(\d\d)/.exec(text);
  return day ? Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : null;
}

/**
 * `dtComu`, `21/04/2026 07:12:45` in Rome's local time, read as if UTC (ms): the file's times are only
 * compared with each other and with its extraction day, where an hour or two does not matter. Null when
 * it does not read so.
 */
function communicatedAt(text: string): number | null {
  const at = /^(\d\d)\/(\d\d)\/(\d{4})(?: (\d\d):(\d\d):(\d\d))?$/.exec(text);
  if (!at) return null;
  const [day, month, year, hour, minute, second] = at.slice(1).map((part) => Number(part ?? 0));
  return Date.UTC(year as number, (month as number) - 1, day, hour, minute, second);
}

export function italyScraper(baseUrl: string, timeoutMs = 60_000): Scraper<FetchResult> {
  const base = withoutTrailingSlashes(baseUrl);
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
