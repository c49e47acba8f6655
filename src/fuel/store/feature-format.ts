/**
 * The GeoJSON Feature of the map's answers (StationFeature in the fuel document) as text, field by field:
 * the one description both backends write their SQL from (sqlite/features.ts, postgres/features.ts). The
 * object the other answers use is built by domain/features.ts `stationFeature`; feature-format.test.ts
 * holds the two to the same fields in the same order.
 *
 * A Feature's text is made in three parts:
 * 1. the head, stored with each station (`feature_head`, written by the upsert): the geometry and the
 *    station's own properties, with the properties' object left open;
 * 2. the tail, written by the database on each read: the fuel asked for, then for a fuel its price's
 *    currency, price and the opening quote of its time, for chargers EUR and the power when there is one
 *    (the Feature closed);
 * 3. the price's time, and the place along a route for the corridor, written by this process
 *    (`finishFeatureText`): formatting times cost the databases more than the rest of the row.
 */
import { EV_FUEL } from './store';

/** The station's own properties, in the Feature's order, with the stations column each comes from. */
export const STATION_PROPERTIES = [
  ['id', 'id'],
  ['externalId', 'external_id'],
  ['country', 'country'],
  ['name', 'name'],
  ['brand', 'brand'],
  ['address', 'address'],
  ['city', 'city'],
] as const;

export type StationProperty = (typeof STATION_PROPERTIES)[number][0];

/** How a dialect writes JSON text in SQL. Numbers are written as the shortest text that reads back the same. */
export interface JsonSql {
  /** A string's (or NULL's) JSON text. */
  string(sql: string): string;
  /** A number's JSON text. */
  number(sql: string): string;
  /** A JSON object's text from property names and SQL values (strings or NULL). */
  object(pairs: readonly (readonly [string, string])[]): string;
  /** The JSON array `[lon,lat]`. */
  point(lon: string, lat: string): string;
}

/**
 * The head: `{"type":"Feature","geometry":{"type":"Point","coordinates":[lon,lat]},"properties":{"id":…,"city":…`
 * with each property's SQL value given by `value`. The properties end with a string (the city), so `rtrim`
 * takes off only the object's closing brace. (The migrations that added `feature_head` wrote the same text.)
 */
export function featureHeadSql(
  json: JsonSql,
  value: (property: StationProperty, column: string) => string,
  lon: string,
  lat: string,
): string {
  const properties = json.object(
    STATION_PROPERTIES.map(([property, column]) => [property, value(property, column)]),
  );
  return `'{"type":"Feature","geometry":{"type":"Point","coordinates":' || ${json.point(lon, lat)} ||
    '},"properties":' || rtrim(${properties}, '}')`;
}

/** The tail's first fields up to the currency's value, as this process writes it (a query's parameter). */
export const fuelTypePrefix = (fuel: string) => `,"fuelType":${JSON.stringify(fuel)},"currency":`;

/** The same text written by the database from the fuel's SQL value. */
export const fuelTypePrefixSql = (json: JsonSql, fuel: string) =>
  `',"fuelType":' || ${json.string(fuel)} || ',"currency":'`;

/**
 * The tail after the stored head, for stations `s` and their latest price `p`; `prefix` is SQL whose value is
 * `fuelTypePrefix(fuel)`. For a fuel it ends at the opening quote of the price's time; for chargers (which
 * carry EUR, meaningless there) the Feature is whole.
 */
export function featureTailSql(json: JsonSql, fuel: string, prefix: string): string {
  return fuel === EV_FUEL
    ? `${prefix} || '"EUR"' ||
        CASE WHEN s.power_kw IS NULL THEN '' ELSE ',"powerKw":' || ${json.number('s.power_kw')} END || '}}'`
    : `${prefix} || ${json.string("coalesce(p.currency, 'EUR')")} || ',"price":' || ${json.number('p.price')} ||
        ',"reportedAt":"'`;
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
 * A Feature text written by the database up to the opening quote of its price's time (`reportedAt`, in
 * milliseconds), finished here; with no time the text is whole.
 */
export function finishFeatureText(text: string, reportedAt: number | null): string {
  return reportedAt === null ? text : `${text}${isoText(reportedAt)}"}}`;
}

/** `finishFeatureText` with the station's place along a route added as its last property. */
export function finishFeatureTextAlong(
  text: string,
  reportedAt: number | null,
  routeFraction: number,
): string {
  const fraction = `"routeFraction":${sixDecimals(routeFraction)}}}`;
  return reportedAt === null
    ? `${text.slice(0, text.lastIndexOf('}}'))},${fraction}`
    : `${text}${isoText(reportedAt)}",${fraction}`;
}
