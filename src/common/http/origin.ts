/**
 * Where a browser request comes from, for the checks that cookies alone cannot make: a page on another
 * port of the same host is "same-site", so `SameSite=Lax` cookies go with its form posts and body-less
 * fetches. A request from a browser names its origin (`Origin`, and `Sec-Fetch-Site` in every current
 * browser); one with neither header comes from a script, an SDK or curl, which holds the cookie itself.
 */
import type { IncomingHttpHeaders } from 'node:http';

export type AllowedOrigins = '*' | readonly string[];

/**
 * Whether a request may act with the caller's cookie: its `Origin` is the host's own or one of the
 * configured origins; with no `Origin`, `Sec-Fetch-Site` must say the same origin (or a navigation the
 * user made). `*` allows no foreign origin: it lets any page read answers, never act with a cookie.
 */
export function sameOriginRequest(headers: IncomingHttpHeaders, allowed: AllowedOrigins): boolean {
  const origin = headers.origin;
  if (origin !== undefined) {
    if (Array.isArray(allowed) && allowed.includes(origin)) return true;
    try {
      return new URL(origin).host === headers.host;
    } catch {
      // `null` (a sandboxed frame, a file) or garbage.
      return false;
    }
  }
  const site = headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A method that changes state (anything but GET, HEAD and OPTIONS). */
export const changesState = (method: string | undefined) =>
  !SAFE_METHODS.has((method ?? 'GET').toUpperCase());
