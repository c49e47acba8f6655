import type { BatchedFetch, FeedContext, FetchResult, RawPrice, RawStation, RunLog } from '../types';

export interface RecordingLog extends RunLog {
  lines: string[];
  errors: string[];
  /** Every line, info and error, in order. */
  all: string[];
}

export function recordingLog(): RecordingLog {
  const lines: string[] = [];
  const errors: string[] = [];
  const all: string[] = [];
  return {
    lines,
    errors,
    all,
    info: (line) => {
      lines.push(line);
      all.push(line);
    },
    error: (line) => {
      errors.push(line);
      all.push(line);
    },
  };
}

export interface TestContext extends FeedContext {
  log: RecordingLog;
  /** Every requested pause, in milliseconds; none of them is really waited. */
  sleeps: number[];
  /** Moves the injected clock forward. */
  advance(ms: number): void;
}

/** A feed context with real HTTP and a virtual clock: sleeps advance the clock instead of waiting. */
export function testContext(options: { now?: number; signal?: AbortSignal } = {}): TestContext {
  let now = options.now ?? Date.parse('2026-04-21T10:00:00Z');
  const sleeps: number[] = [];
  return {
    fetch: globalThis.fetch,
    signal: options.signal ?? new AbortController().signal,
    log: recordingLog(),
    sleeps,
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

/** Every part of a feed's answer, read whole (what the pipeline takes part by part). */
export async function readWhole(
  fetched: FetchResult | BatchedFetch,
): Promise<FetchResult & { parts: number }> {
  if (!('batches' in fetched)) return { ...fetched, parts: 1 };
  const whole = { stations: [] as RawStation[], prices: [] as RawPrice[], parts: 0 };
  for await (const part of fetched.batches) {
    whole.stations.push(...part.stations);
    whole.prices.push(...part.prices);
    whole.parts++;
  }
  return whole;
}
