/**
 * Who is asking, for rate limits and audit lines: one client-IP rule and one rate-limit decision for
 * every service.
 */
import { BlockList, isIP } from 'node:net';
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

/** Peers whose word a service takes (a reverse proxy's identity header): addresses and CIDR ranges. */
export interface TrustedPeers {
  /** The entries as configured, for messages and logs. */
  readonly entries: readonly string[];
  /** Whether a socket peer is one of them (IPv4-mapped IPv6 peers match their IPv4 entries). */
  has(address: string | undefined): boolean;
}

/**
 * Parses `127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`; throws naming the first entry that is neither an
 * address nor a range.
 */
export function trustedPeers(entries: readonly string[]): TrustedPeers {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
    if (
      family === 0 ||
      extra !== undefined ||
      !Number.isInteger(bits) ||
      bits < 0 ||
      bits > (family === 6 ? 128 : 32)
    ) {
      throw new Error(`"${entry}" is neither an IP address nor a CIDR range`);
    }
    list.addSubnet(address, bits, family === 6 ? 'ipv6' : 'ipv4');
  }
  return {
    entries: [...entries],
    has(raw) {
      if (!raw) return false;
      const address = stripMapped(raw);
      const family = isIP(address);
      return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}
