import type { Request, RequestHandler } from 'express';
import { isLoopbackPeer, isPrivatePeer } from '../../common/peer-address';
import { ArchiveError } from '../domain/errors';
import { constantTimeEqual } from '../domain/secrets';
import type { HostRule } from './hosts';

/**
 * `/internal/push`: only loopback and private peers (the socket peer, never a forwarded address); with a
 * secret every caller sends it as a bearer token, without one only loopback gets in, and only for one of
 * the viewer's own names (a browser on this machine sent there by DNS rebinding names the attacker's).
 */
export function internalPushAllowed(req: Request, secret: string | null, ownHost: HostRule): boolean {
  const peer = req.socket.remoteAddress;
  if (!secret) return isLoopbackPeer(peer) && ownHost(req);
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  return isPrivatePeer(peer) && bearer !== undefined && constantTimeEqual(bearer, secret);
}

/** The caller rule of `POST /internal/push` (access.ts): refused before its body is looked at. */
export const internalPushCaller =
  (secret: string | null, ownHost: HostRule): RequestHandler =>
  async (req, _res, next) => {
    if (internalPushAllowed(req, secret, ownHost)) return next();
    // Drained so the connection stays usable.
    await drainBody(req);
    throw new ArchiveError('forbidden', 'Forbidden');
  };

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
