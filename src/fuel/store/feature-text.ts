import { EV_FUEL } from './store';

/**
 * One station as the PostgreSQL adapter reads it for its Feature text: the station's own fields as the
 * stored JSON object (`fields_json`), the rest as values. A 20,000-station answer reads one string per
 * station instead of seven, and those strings need no escaping again.
 */
export interface StationJsonRow {
  /** `{"id":…,"externalId":…,"country":…,"name":…,"brand":…,"address":…,"city":…}` (any JSON spacing). */
  fieldsJson: string;
  lon: number;
  lat: number;
  powerKw: number | null;
  price: number | null;
  currency: string | null;
  /** Milliseconds since the epoch. */
  reportedAt: number | null;
}

/**
 * The columns read for a StationJsonRow, in this order: its own fields as one JSON
 * object, lon, lat, power, price, currency and the price's time in milliseconds.
 */
export type StationJsonColumns = [
  fieldsJson: string,
  lon: number,
  lat: number,
  powerKw: number | null,
  price: number | null,
  currency: string | null,
  reportedAt: number | null,
];

/** A row read in array mode whose StationJsonColumns start at `at`. */
export function stationJsonRow(row: readonly unknown[], at = 0): StationJsonRow {
  const [fieldsJson, lon, lat, powerKw, price, currency, reportedAt] = row.slice(
    at,
    at + 7,
  ) as StationJsonColumns;
  return { fieldsJson, lon, lat, powerKw, price, currency, reportedAt };
}

/** A route fraction as stationFeature rounds it. */
const sixDecimals = (value: number) => Math.round(value * 1e6) / 1e6;

/** Each `reportedAt` of an answer is usually the same few instants: their ISO text, kept. */
const isoTexts = new Map<number, string>();
function isoText(ms: number): string {
  let text = isoTexts.get(ms);
  if (text === undefined) {
    if (isoTexts.size >= 1024) isoTexts.clear();
    text = new Date(ms).toISOString();
    isoTexts.set(ms, text);
  }
  return text;
}

/**
 * `stationFeature` (domain/features.ts) written directly as JSON text, from a row whose own fields the
 * database wrote as JSON already: the same Feature once parsed (`features.test.ts` holds the two together on
 * both backends). Numbers are written as JSON.stringify writes them (`String` of a finite number).
 */
export function stationFeatureJson(
  row: StationJsonRow,
  fuel: string,
  extras: { routeFraction?: number } = {},
): string {
  const ev = fuel === EV_FUEL;
  const fields = row.fieldsJson.slice(0, row.fieldsJson.lastIndexOf('}'));
  let extra = `,"fuelType":${JSON.stringify(fuel)},"currency":${ev || row.currency === null ? '"EUR"' : JSON.stringify(row.currency)}`;
  if (!ev && row.price !== null) extra += `,"price":${row.price}`;
  if (!ev && row.reportedAt !== null) extra += `,"reportedAt":"${isoText(row.reportedAt)}"`;
  if (ev && row.powerKw !== null) extra += `,"powerKw":${row.powerKw}`;
  if (extras.routeFraction !== undefined) extra += `,"routeFraction":${sixDecimals(extras.routeFraction)}`;
  return `{"type":"Feature","geometry":{"type":"Point","coordinates":[${row.lon},${row.lat}]},"properties":${fields}${extra}}}`;
}

/**
 * A Feature text written by the database up to the opening quote of its price's time (`reportedAt`, in
 * milliseconds), finished here; with no time the text is whole.
 */
export function finishFeatureText(text: string, reportedAt: number | null): string {
  return reportedAt === null ? text : `${text}${isoText(reportedAt)}"}}`;
}

/** A Feature text with the station's place along a route added as its last property. */
export function withRouteFraction(feature: string, routeFraction: number): string {
  return `${feature.slice(0, feature.lastIndexOf('}}'))},"routeFraction":${sixDecimals(routeFraction)}}}`;
}
