import { constants } from 'node:buffer';
import { timeLimit } from '../../common/time-limit';
import type { FeedContext } from './types';

/** A feed answered with an error status. The message names the host only: queries may carry keys. */
export class FeedHttpError extends Error {
  override name = 'FeedHttpError';
  constructor(
    readonly status: number,
    readonly host: string,
    readonly retryAfter: string | null,
  ) {
    super(`HTTP ${status} from ${host}`);
  }
}

export interface RequestOptions {
  timeoutMs: number;
  headers?: Record<string, string>;
  method?: string;
  body?: string;
}

/** One request with the scraper's time limit; a non-2xx answer throws FeedHttpError. */
export async function request(ctx: FeedContext, url: string, options: RequestOptions): Promise<Response> {
  const signal = timeLimit(options.timeoutMs, ctx.signal);
  const init: RequestInit = { signal, headers: { 'user-agent': 'specyard-fuel/0.1', ...options.headers } };
  if (options.method) init.method = options.method;
  if (options.body !== undefined) init.body = options.body;
  const response = await ctx.fetch(url, init).catch((error: unknown) => {
    throw connectionFailure(error, url);
  });
  if (!response.ok) {
    // Drain the body so the connection is released.
    await response.arrayBuffer().catch(() => undefined);
    throw new FeedHttpError(response.status, new URL(url).host, response.headers.get('retry-after'));
  }
  return response;
}

/**
 * A connection that failed (`fetch failed`, the seed's words for it) said with its cause and the host,
 * never the path or query (they may carry keys): `fetch failed: ECONNREFUSED from 127.0.0.1:9`. Time-outs
 * and cancellations pass as they are.
 */
function connectionFailure(error: unknown, url: string): unknown {
  if (!(error instanceof TypeError) || error.message !== 'fetch failed') return error;
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const why =
    typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : null;
  return new TypeError(`fetch failed${why ? `: ${why}` : ''} from ${new URL(url).host}`, {
    cause: error.cause,
  });
}

export async function getBytes(ctx: FeedContext, url: string, options: RequestOptions): Promise<Buffer> {
  const response = await request(ctx, url, options);
  return Buffer.from(await response.arrayBuffer());
}

export async function getJson<T = unknown>(
  ctx: FeedContext,
  url: string,
  options: RequestOptions,
): Promise<T> {
  const bytes = await getBytes(ctx, url, options);
  return parseJson<T>(decodeText(bytes), new URL(url).host);
}

export async function getText(ctx: FeedContext, url: string, options: RequestOptions): Promise<string> {
  return decodeText(await getBytes(ctx, url, options));
}

export function parseJson<T>(text: string, host: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new Error(`Invalid JSON from ${host}: ${(error as Error).message}`);
  }
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * Text of a feed whose encoding is not declared reliably: UTF-8 (with or without a byte order mark) when
 * the bytes are valid UTF-8, otherwise Windows-1252, the superset of Latin-1 older government files use.
 * A body longer than the longest text the runtime holds (`maxChars`, about 512 MiB) fails the feed's run
 * with that said: decoding it had stopped the whole server (a 500,000-station Spanish feed, over 512 MiB).
 */
export function decodeText(bytes: Uint8Array, maxChars: number = constants.MAX_STRING_LENGTH): string {
  const hasBom = UTF8_BOM.every((byte, index) => bytes[index] === byte);
  const body = hasBom ? bytes.subarray(3) : bytes;
  if (body.length > maxChars) {
    const mb = (n: number) => `${Math.floor(n / 2 ** 20)} MiB`;
    throw new Error(`feed answer of ${mb(body.length)} is longer than the ${mb(maxChars)} one text can hold`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch (error) {
    // Only bytes that are not UTF-8 fall back; any other failure is the run's.
    if (!(error instanceof TypeError)) throw error;
    return windows1252(body);
  }
}

/**
 * Windows-1252's characters at 0x80-0x9F (the WHATWG Encoding table; five bytes there are unassigned and
 * stay the control characters Latin-1 has). Node's TextDecoder reads the label as Latin-1 and gives 0x80
 * as U+0080, where the file meant €.
 */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d,
  0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a,
  0x153, 0x9d, 0x17e, 0x178,
];

function windows1252(body: Uint8Array): string {
  return new TextDecoder('latin1')
    .decode(body)
    .replace(/[\x80-\x9f]/g, (c) => String.fromCharCode(CP1252_HIGH[c.charCodeAt(0) - 0x80] as number));
}

/** Seconds to wait from a Retry-After header (seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null || header.trim() === '') return null;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - now) : null;
}

/** Runs `task` over `items` with at most `limit` in flight, keeping the input order in the result. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
