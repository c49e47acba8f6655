/** Feature texts written by a database, finished in this process (see FeatureTexts in store.ts). */
import type { FeatureTexts } from './store';

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

/**
 * Feature texts joined with commas into runs of about `charsPerRun` characters (FeatureTexts), each run made
 * as its Features are added: a store adds each row's text as it reads it, and the row's strings are garbage
 * at once. Holding 20,000 small strings until the answer was written made every minor collection of the
 * process copy them (scripts/bench/README.md, "tenth pass"). A run stays well under the size at which V8
 * puts a string in its large-object space, where each is mapped afresh: runs of 500 features (about
 * 140 KB) made writing a 20,000-feature answer 17 times slower than runs of 100 on a machine with costly
 * page faults ("eighth pass").
 */
export class FeatureRuns {
  private readonly runs: string[] = [];
  private batch: string[] = [];
  private chars = 0;
  private count = 0;
  private truncated = false;

  constructor(
    private readonly limit: number,
    private readonly charsPerRun = 32_768,
  ) {}

  /** Adds a Feature text; past the limit it only marks the answer truncated. False once it is. */
  add(text: string): boolean {
    if (this.count >= this.limit) {
      this.truncated = true;
      return false;
    }
    this.batch.push(text);
    this.count++;
    this.chars += text.length + 1;
    if (this.chars >= this.charsPerRun) this.endRun();
    return true;
  }

  /** Marks the answer truncated without a Feature (more matched than were read). */
  markTruncated(): void {
    this.truncated = true;
  }

  result(): FeatureTexts {
    this.endRun();
    return { runs: this.runs, count: this.count, truncated: this.truncated };
  }

  private endRun(): void {
    if (this.batch.length === 0) return;
    this.runs.push(this.batch.join(','));
    this.batch = [];
    this.chars = 0;
  }
}
