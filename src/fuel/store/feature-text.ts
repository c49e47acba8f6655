/** Feature texts written by a database, finished in this process (see FeatureTexts in store.ts). */
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

/** A Feature text with the station's place along a route added as its last property. */
function withRouteFraction(feature: string, routeFraction: number): string {
  return `${feature.slice(0, feature.lastIndexOf('}}'))},"routeFraction":${sixDecimals(routeFraction)}}}`;
}

/** `finishFeatureText` with the station's place along a route added, as `withRouteFraction` adds it. */
export function finishFeatureTextAlong(
  text: string,
  reportedAt: number | null,
  routeFraction: number,
): string {
  return reportedAt === null
    ? withRouteFraction(text, routeFraction)
    : `${text}${isoText(reportedAt)}","routeFraction":${sixDecimals(routeFraction)}}}`;
}
