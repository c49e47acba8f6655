/** Feature texts joined into the runs an answer is written from (see FeatureTexts in store.ts). */
import type { FeatureTexts } from './store';

/**
 * Feature texts joined with commas into runs of about `charsPerRun` characters (FeatureTexts), each run made
 * as its Features are added: for rows handed over one by one as the driver reads them (PostgreSQL's box),
 * whose strings are then garbage at once. 20,000 rows held until the answer was written made the minor
 * collections copy them (scripts/bench/README.md, fuel decisions). A store that holds its rows anyway makes
 * the runs as the answer is written (featureRunsOf): runs made beforehand would be held beside the rows.
 * A run stays well under the size at which V8 puts a string in its large-object space, where each is
 * mapped afresh: runs of 500 features (about 140 KB) made writing a 20,000-feature answer 17 times slower
 * than runs of 100 on a machine with costly page faults ("eighth pass").
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

  result(): FeatureTexts & { runs: string[] } {
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

/** The same runs made one at a time as they are asked for, from rows already read, each row's text by `text`. */
export function* featureRunsOf<T>(
  rows: T[],
  text: (row: T, at: number) => string,
  charsPerRun = 32_768,
): Generator<string> {
  let batch: string[] = [];
  let chars = 0;
  for (let at = 0; at < rows.length; at++) {
    const feature = text(rows[at] as T, at);
    batch.push(feature);
    chars += feature.length + 1;
    if (chars >= charsPerRun) {
      yield batch.join(',');
      batch = [];
      chars = 0;
    }
  }
  if (batch.length > 0) yield batch.join(',');
}
