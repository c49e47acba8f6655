import type { Request } from 'express';

const stripMapped = (address: string) => (address.startsWith('::ffff:') ? address.slice(7) : address);

/**
 * The client's address for the login limit and the audit log: the socket peer, or with
 * `TRUST_PROXY_HEADERS=true` the first `X-Forwarded-For` entry, then `X-Real-IP`.
 */
export function clientIp(req: Request, trustProxyHeaders: boolean): string {
  if (trustProxyHeaders) {
    const forwarded = String(req.headers['x-forwarded-for'] ?? '')
      .split(',')[0]
      ?.trim();
    if (forwarded) return stripMapped(forwarded);
    const real = String(req.headers['x-real-ip'] ?? '').trim();
    if (real) return stripMapped(real);
  }
  return stripMapped(req.socket.remoteAddress ?? 'unknown');
}

/** Whether the request reached the viewer over https (directly or, per its proxy, at the front). */
export function cameOverHttps(req: Request): boolean {
  const forwarded = String(req.headers['x-forwarded-proto'] ?? '')
    .split(',')[0]
    ?.trim()
    .toLowerCase();
  return forwarded === 'https' || (req.socket as { encrypted?: boolean }).encrypted === true;
}

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
      return value.length > 0 ? value : undefined;
    }
  }
  return undefined;
}

/** `X-Viewer-Only: true` asks for viewer rights only. */
export const viewerOnly = (req: Request) =>
  String(req.headers['x-viewer-only'] ?? '')
    .trim()
    .toLowerCase() === 'true';
