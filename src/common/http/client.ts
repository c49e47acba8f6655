/**
 * Who is asking, for rate limits and audit lines: one client-IP rule and one rate-limit decision for
 * every service.
 */
import type { Request } from 'express';

/** What a rate limiter answers for one attempt. */
export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until the next attempt is allowed (0 when allowed). */
  retryAfter: number;
}

export interface ClientIpOptions {
  /** Believe `X-Forwarded-For` (first entry), then `X-Real-IP`: only behind a proxy that sets them. */
  trustProxyHeaders: boolean;
  /**
   * Without a proxy header: the socket peer (default), or one shared `unknown` bucket (a service that
   * always sits behind a proxy, where the peer is the proxy itself).
   */
  withoutHeader?: 'peer' | 'shared';
}

const stripMapped = (address: string) => (address.startsWith('::ffff:') ? address.slice(7) : address);

export function clientIp(req: Pick<Request, 'headers' | 'socket'>, options: ClientIpOptions): string {
  if (options.trustProxyHeaders) {
    const forwarded = String(req.headers['x-forwarded-for'] ?? '')
      .split(',')[0]
      ?.trim();
    if (forwarded) return stripMapped(forwarded);
    const real = String(req.headers['x-real-ip'] ?? '').trim();
    if (real) return stripMapped(real);
  }
  if (options.withoutHeader === 'shared') return 'unknown';
  return stripMapped(req.socket.remoteAddress ?? 'unknown');
}
