/**
 * The names this viewer answers to, for what a browser on the viewer's own machine could otherwise be
 * made to do for a page of another site by DNS rebinding (a name of the attacker's that resolves to
 * 127.0.0.1): post live events without the secret, or read an anonymous viewer. Such a page sends its own
 * name as `Host`; a loopback name, an IP address (rebinding needs a name), `VIEWER_HOST`, the hosts of
 * `CORS_ORIGINS` and those of `ALLOWED_HOSTS` are the viewer's.
 */

import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

export type HostRule = (req: IncomingMessage) => boolean;

/** `example.org:8000` → `example.org`, `[::1]:8000` → `::1`, lower case, without a final dot. */
export function hostName(header: string | undefined): string {
  const value = (header ?? '').trim().toLowerCase();
  const name = value.startsWith('[') ? value.slice(1, value.indexOf(']')) : (value.split(':')[0] ?? '');
  let end = name.length;
  while (end > 0 && name[end - 1] === '.') end--;
  return name.slice(0, end);
}

export function viewerHosts(names: readonly string[]): HostRule {
  const own = new Set(names.map((name) => hostName(name)).filter(Boolean));
  return (req) => {
    const name = hostName(req.headers.host);
    if (!name) return false;
    return isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost') || own.has(name);
  };
}
