import { JSONParser, TokenType } from '@streamparser/json';
import type { FuelCode } from '../../model/fuels';
import { getJson, type RequestOptions, request } from '../http';
import { type Bounds, clean, looseNumber, orNull, placeInBounds } from '../parse';
import type { BatchedFetch, FeedBatch, FeedContext, FetchResult, Scraper } from '../types';

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

/** Stations handed over per part while the answer is read. */
const PART = 5_000;

/** One row of the ministry's list → its station and prices, or null when it has no id or place in Spain. */
function parseRow(row: MinistryStation, into: FeedBatch, seen: Set<string>): void {
  const id = clean(row.IDEESS);
  if (!id || seen.has(id)) return;
  const place = placeInBounds(looseNumber(row.Latitud), looseNumber(row['Longitud (WGS84)']), SPAIN);
  if (!place) return;
  seen.add(id);
  const brand = orNull(row.Rótulo);
  into.stations.push({
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
    if (price !== null) into.prices.push({ externalId: id, fuel, price, currency: 'EUR' });
  }
}

const okOrThrow = (result: unknown) => {
  if (result !== 'OK') {
    throw new Error(`Spanish ministry feed answered "${clean(result) || 'no result'}"`);
  }
};

/** The ministry's answer → stations and prices. All numbers arrive as text with a decimal comma. */
export function parseSpain(answer: MinistryAnswer): FetchResult {
  okOrThrow(answer.ResultadoConsulta);
  if (!Array.isArray(answer.ListaEESSPrecio)) throw new Error('Spanish ministry feed: no station list');
  const result: FetchResult = { stations: [], prices: [] };
  const seen = new Set<string>();
  for (const row of answer.ListaEESSPrecio) parseRow(row, result, seen);
  return result;
}

/**
 * The ministry's answer read as it arrives, in parts of PART stations: the whole list of a large country
 * is never one text (past about 512 MiB the runtime cannot hold it) nor one array. The result code comes
 * after the list, so a part is only a candidate until the end: the pipeline keeps the parts aside and
 * writes nothing when the answer ends in an error. A body that is not UTF-8 is asked for again and read
 * whole (decodeText's Windows-1252).
 */
async function* readSpain(ctx: FeedContext, url: string, options: RequestOptions): AsyncGenerator<FeedBatch> {
  const response = await request(ctx, url, options);
  const host = new URL(url).host;
  // Only the stations and the result are asked for: asking for the list too would keep every station in
  // it until its end (the parser holds what a path it emits contains), 2.8 GB for a list of 1,000,000.
  const parser = new JSONParser({ paths: ['$.ListaEESSPrecio.*', '$.ResultadoConsulta'], keepStack: false });
  let part: FeedBatch = { stations: [], prices: [] };
  const ready: FeedBatch[] = [];
  const seen = new Set<string>();
  let listed = false;
  let result: unknown;
  parser.onValue = ({ value, key, parent, stack }) => {
    if (stack.length === 2 && Array.isArray(parent)) {
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        parseRow(value as MinistryStation, part, seen);
        if (part.stations.length === PART) {
          ready.push(part);
          part = { stations: [], prices: [] };
        }
      }
    } else if (key === 'ResultadoConsulta') {
      result = value;
    }
  };
  // Whether the answer has a list (an empty one too), from its tokens: the last member of the answer's
  // object named ListaEESSPrecio (JSON.parse keeps the last of a repeated name) opens with a bracket.
  let depth = 0;
  let name: unknown;
  let named = false;
  parser.onToken = ({ token, value }) => {
    if (depth === 1) {
      if (token === TokenType.STRING && !named) name = value;
      else if (token === TokenType.COLON) named = true;
      else {
        if (named && name === 'ListaEESSPrecio') listed = token === TokenType.LEFT_BRACKET;
        name = undefined;
        named = false;
      }
    }
    if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) depth++;
    else if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) depth--;
  };
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const body = response.body;
  if (!body) throw new Error(`Invalid JSON from ${host}: no body`);
  let handed = 0;
  let notUtf8 = false;
  for await (const chunk of chunksOf(body)) {
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      notUtf8 = true;
      break;
    }
    try {
      if (!parser.isEnded || text.trim() !== '') parser.write(text);
    } catch (error) {
      throw new Error(`Invalid JSON from ${host}: ${(error as Error).message}`);
    }
    for (const done of ready.splice(0)) {
      handed += done.stations.length;
      yield done;
    }
  }
  if (notUtf8) {
    // Windows-1252 shows in the first station (the field names hold accents); a body that changes its
    // encoding half-way cannot be read either way.
    if (handed > 0)
      throw new Error(`Spanish ministry feed: the answer is not UTF-8 past its first ${handed} stations`);
    yield parseSpain(await getJson<MinistryAnswer>(ctx, url, options));
    return;
  }
  try {
    const tail = decoder.decode();
    if (!parser.isEnded || tail.trim() !== '') parser.write(tail);
    if (!parser.isEnded) parser.end();
  } catch (error) {
    throw new Error(`Invalid JSON from ${host}: ${(error as Error).message}`);
  }
  okOrThrow(result);
  if (!listed) throw new Error('Spanish ministry feed: no station list');
  yield* ready.splice(0);
  if (part.stations.length > 0) yield part;
}

/** The chunks of a body; a reader left early (a break) cancels the rest. */
async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

export function spainScraper(url: string, timeoutMs = 60_000): Scraper<BatchedFetch> {
  return {
    key: 'ES',
    source: 'miteco',
    country: 'ES',
    timeoutMs,
    async fetch(ctx) {
      return { batches: readSpain(ctx, url, { timeoutMs, headers: { accept: 'application/json' } }) };
    },
  };
}
