/**
 * Reading the loose values government feeds publish: numbers with a decimal comma or a unit, coordinates
 * that may be swapped or empty, CSV files with preambles, and flat RSS items.
 */
import { SaxesParser } from 'saxes';

/** `"1,769"`, `"1.769"`, `"1,679 €"`, `1.769` → 1.769; empty, text or a thousands-grouped value → null. */
export function looseNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const cleaned = value
    .replace(/[\s\u00a0]/g, '')
    .replace(/[€$£]|EUR|kr\.?|DKK/gi, '')
    .replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(cleaned)) return null;
  const number = Number(cleaned);
  return Number.isFinite(number) ? number : null;
}

export interface Bounds {
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

export const inBounds = (lat: number, lon: number, b: Bounds) =>
  lat >= b.minLat && lat <= b.maxLat && lon >= b.minLon && lon <= b.maxLon;

/**
 * A coordinate pair checked against the area a feed covers. A pair that only fits the area with latitude
 * and longitude exchanged is swapped back (feeds do publish them the wrong way round); 0,0, empty and
 * out-of-range pairs give null.
 */
export function placeInBounds(
  lat: number | null,
  lon: number | null,
  bounds: Bounds,
): [number, number] | null {
  if (lat === null || lon === null || !Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  if (lat === 0 && lon === 0) return null;
  if (inBounds(lat, lon, bounds)) return [lat, lon];
  if (inBounds(lon, lat, bounds)) return [lon, lat];
  return null;
}

export const isValidLatLon = (lat: number, lon: number) =>
  Number.isFinite(lat) &&
  Number.isFinite(lon) &&
  Math.abs(lat) <= 90 &&
  Math.abs(lon) <= 180 &&
  !(lat === 0 && lon === 0);

/** Collapses inner runs of spaces and trims; `null`/`undefined` become ''. */
export function clean(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value).replace(/\s+/g, ' ').trim();
}

export const orNull = (value: unknown): string | null => clean(value) || null;

/**
 * RFC 4180-style CSV: quoted cells may hold the separator, doubled quotes and line breaks. Returns every
 * record, including preamble lines, as arrays of cells.
 */
export function parseCsv(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else {
          quoted = false;
        }
      } else {
        cell += char;
      }
    } else if (char === '"' && cell === '') {
      quoted = true;
    } else if (char === separator) {
      row.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else {
      cell += char;
    }
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/**
 * The child elements of each `<item>` of an RSS document, by tag name (flat items only, as RSS has), their
 * text with entities and CDATA read. Read by an XML parser in one pass (saxes), so a malformed or hostile
 * feed costs time in proportion to its size; an entity XML does not define (`&nbsp;` in a feed written as
 * HTML) is kept as written.
 */
export function parseRssItems(xml: string): Record<string, string>[] {
  const items: Record<string, string>[] = [];
  let root: string | undefined;
  let item: Record<string, string> | undefined;
  let field: { name: string; text: string } | undefined;
  const parser = new SaxesParser({ fragment: false });
  parser.on('error', () => undefined);
  parser.on('opentag', (tag) => {
    root ??= tag.name;
    if (!item && tag.name === 'item') item = {};
    else if (item && !field) field = { name: tag.name, text: '' };
  });
  const text = (value: string) => {
    if (field) field.text += value;
  };
  parser.on('text', text);
  parser.on('cdata', text);
  parser.on('closetag', (tag) => {
    if (field && tag.name === field.name) {
      if (item) item[field.name] = field.text.trim();
      field = undefined;
    } else if (item && tag.name === 'item') {
      items.push(item);
      item = undefined;
    }
  });
  parser.write(xml).close();
  if (root !== 'rss') throw new Error('Not an RSS document');
  return items;
}

/** The highest plausible connector power in kW (above 0, at most 1,000), or null. */
export function maxPowerKw(values: Iterable<number | null | undefined>): number | null {
  let best: number | null = null;
  for (const value of values) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 1000) continue;
    if (best === null || value > best) best = value;
  }
  // One decimal: 19.2 kW and 3.7 kW are real connector ratings.
  return best === null ? null : Math.round(best * 10) / 10;
}

/** Points `stepKm` apart (north-south and east-west) covering a box, for feeds that only answer "near here". */
export function gridPoints(bounds: Bounds, stepKm: number): [number, number][] {
  const points: [number, number][] = [];
  const latStep = stepKm / 111.32;
  for (let lat = bounds.minLat; lat <= bounds.maxLat + latStep / 2; lat += latStep) {
    const lonStep = stepKm / (111.32 * Math.cos((Math.min(lat, 85) * Math.PI) / 180));
    for (let lon = bounds.minLon; lon <= bounds.maxLon + lonStep / 2; lon += lonStep) {
      points.push([Math.round(lat * 1e5) / 1e5, Math.round(lon * 1e5) / 1e5]);
    }
  }
  return points;
}
