import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import { clientIp as commonClientIp } from '../../common/http/client';

/**
 * The client's address for the login limit and the audit log (the common rule): the socket peer, or with
 * `TRUST_PROXY_HEADERS=true` the first `X-Forwarded-For` entry, then `X-Real-IP`.
 */
export const clientIp = (req: Request, trustProxyHeaders: boolean): string =>
  commonClientIp(req, { trustProxyHeaders });

/** Whether the request reached the viewer over https (directly or, per its proxy, at the front). */
export function cameOverHttps(req: Request): boolean {
  const forwarded = String(req.headers['x-forwarded-proto'] ?? '')
    .split(',')[0]
    ?.trim()
    .toLowerCase();
  return forwarded === 'https' || (req.socket as { encrypted?: boolean }).encrypted === true;
}

export function readCookie(req: Pick<IncomingMessage, 'headers'>, name: string): string | undefined {
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
