import { isIP } from 'node:net';
import type { Request } from 'express';
import { constantTimeEqual } from '../domain/secrets';
import type { HostRule } from './hosts';

const isLoopback = (ip: string) => ip === '::1' || ip.startsWith('127.');

function isPrivate(ip: string): boolean {
  if (isLoopback(ip)) return true;
  if (isIP(ip) === 4) {
    const [a = 0, b = 0] = ip.split('.').map(Number);
    return (
      a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)
    );
  }
  const lower = ip.toLowerCase();
  return lower.startsWith('fc') || lower.startsWith('fd') || lower.startsWith('fe80:');
}

/**
 * `/internal/push`: only loopback and private peers (the socket peer, never a forwarded address); with a
 * secret every caller sends it as a bearer token, without one only loopback gets in, and only for one of
 * the viewer's own names (a browser on this machine sent there by DNS rebinding names the attacker's).
 */
export function internalPushAllowed(req: Request, secret: string | null, ownHost: HostRule): boolean {
  const raw = req.socket.remoteAddress ?? '';
  const peer = raw.startsWith('::ffff:') ? raw.slice(7) : raw;
  if (!secret) return isLoopback(peer) && ownHost(req);
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  return isPrivate(peer) && bearer !== undefined && constantTimeEqual(bearer, secret);
}

/** Reads and discards a request body (up to `limit` bytes; a larger one closes the connection). */
export function drainBody(req: Request, limit = 1024 * 1024): Promise<void> {
  return new Promise((resolve) => {
    if (req.complete || req.readableEnded) return resolve();
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.socket.destroy();
        resolve();
      }
    });
    req.once('end', () => resolve());
    req.once('error', () => resolve());
    req.once('close', () => resolve());
  });
}
