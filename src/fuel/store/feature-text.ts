import { EV_FUEL, type StationJsonRow } from './store';

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
  // Six decimals, as stationFeature rounds it.
  if (extras.routeFraction !== undefined)
    extra += `,"routeFraction":${Math.round(extras.routeFraction * 1e6) / 1e6}`;
  return `{"type":"Feature","geometry":{"type":"Point","coordinates":[${row.lon},${row.lat}]},"properties":${fields}${extra}}}`;
}
