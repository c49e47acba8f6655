/**
 * Who may call what, decided before the request is validated, so a caller without the right login
 * learns nothing from parameter errors. Public routes come from the document (`security: []`); the other
 * levels are the seed's access table.
 */
import { type Request, type RequestHandler, type Response, Router } from 'express';
import { documentedOperations, expressPath } from '../../common/http/operations';
import {
  ADMIN_REQUIRED,
  ArchiveError,
  AUTH_NOT_CONFIGURED,
  CHAT_NOT_FOUND,
  NOT_AUTHENTICATED,
} from '../domain/errors';
import { proxyPrincipal } from '../domain/login';
import { ANONYMOUS, isMaster, type Principal, visibilityOf } from '../domain/principal';
import { clientIp, readCookie, viewerOnly } from './client';
import { deps, requestState } from './context';
import { drainBody, internalPushAllowed } from './internal-access';

export type Access = 'public' | 'login-attempt' | 'login' | 'master' | 'internal';

/** Master only: the master login or a proxy admin, never with `X-Viewer-Only: true`. */
export const MASTER_OPERATIONS = new Set([
  'getStatus',
  'refreshStats',
  'openMedia',
  'openMediaPath',
  'listViewers',
  'createViewer',
  'updateViewer',
  'deleteViewer',
  'listAdminChats',
  'listShareTokens',
  'createShareToken',
  'updateShareToken',
  'deleteShareToken',
  'endAllSessions',
  'listAuditLog',
  'getSettings',
  'updateSetting',
]);

/** For other containers; they authenticate by their own rules (source address, secret, signature). */
export const INTERNAL_OPERATIONS = new Set(['pushInternalUpdate', 'receiveTranscriptionCallback']);

/** The two login routes share the login rate limit. */
export const LOGIN_OPERATIONS = new Set(['login', 'loginWithToken']);

// biome-ignore lint/suspicious/noExplicitAny: the bundled document is walked generically.
export function accessOf(doc: any, operationId: string): Access {
  if (LOGIN_OPERATIONS.has(operationId)) return 'login-attempt';
  if (INTERNAL_OPERATIONS.has(operationId)) return 'internal';
  if (MASTER_OPERATIONS.has(operationId)) return 'master';
  const op = documentedOperations(doc).find((o) => o.operationId === operationId);
  const security = op ? doc.paths[op.path][op.method].security : undefined;
  if (Array.isArray(security) && security.length === 0) return 'public';
  return 'login';
}

const COOKIE = 'viewer_auth';

/** Authenticates the caller (proxy header, session cookie, anonymous mode); null when nobody. */
export async function authenticate(req: Request): Promise<Principal | null> {
  const d = deps(req);
  const proxy = d.config.auth.proxy;
  if (proxy) {
    const name = String(req.headers[proxy.header] ?? '').trim();
    if (name) return proxyPrincipal({ ...d, auth: d.config.auth }, name);
  }
  const key = readCookie(req, COOKIE);
  if (key) {
    const session = await d.sessions.resolve(key);
    if (session) {
      return {
        via: 'session',
        role: session.role,
        username: session.username,
        allowedAccounts: session.allowedAccounts,
        allowedChatRefs: session.allowedChatRefs,
        noDownload: session.noDownload,
        sessionKey: key,
      };
    }
  }
  return d.modes.anonymous ? ANONYMOUS : null;
}

/** The caller of a public route, when there is one (memoised per request). */
export async function optionalPrincipal(req: Request, res: Response): Promise<Principal | null> {
  const state = requestState(res);
  if (state.principal === undefined) state.principal = await authenticate(req);
  return state.principal;
}

function guard(operationId: string, access: Access, chatRoute: boolean): RequestHandler {
  return async (req, res, next) => {
    const state = requestState(res);
    if (state.guarded) return next();
    state.guarded = true;
    const d = deps(req);
    if (operationId === 'pushInternalUpdate' && !internalPushAllowed(req, d.live.pushSecret)) {
      // Refused before its body is looked at; it is drained so the connection stays usable.
      await drainBody(req);
      throw new ArchiveError('forbidden', 'Forbidden');
    }
    if (access === 'public' || access === 'internal') return next();
    if (access === 'login-attempt') {
      const decision = d.limiter.attempt(clientIp(req, d.config.auth.trustProxyHeaders));
      if (!decision.allowed) {
        throw new ArchiveError(
          'too-many-requests',
          'Too many login attempts. Try again later.',
          decision.retryAfter,
        );
      }
      return next();
    }
    if (!d.modes.configured) throw new ArchiveError('not-configured', AUTH_NOT_CONFIGURED);
    const p = await optionalPrincipal(req, res);
    if (!p) throw new ArchiveError('unauthenticated', NOT_AUTHENTICATED);
    if (access === 'master' && (!isMaster(p) || viewerOnly(req))) {
      throw new ArchiveError('forbidden', ADMIN_REQUIRED);
    }
    if (chatRoute) {
      const ref = String(req.params.chat_ref ?? '');
      const found = await d.store.findChat(visibilityOf(p, d.config.displayChatIds), ref);
      if (!found) throw new ArchiveError('not-found', CHAT_NOT_FOUND);
      state.chat = found;
    }
    next();
  };
}

/**
 * One guard per documented operation, registered most specific path first (as the operations are
 * mounted), so the first guard that matches decides.
 */
// biome-ignore lint/suspicious/noExplicitAny: see accessOf.
export function accessGuards(doc: any): Router {
  const router = Router();
  const ops = documentedOperations(doc).sort((a, b) => {
    const sa = a.path.split('/');
    const sb = b.path.split('/');
    for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
      const ta = sa[i]?.startsWith('{') ? 1 : 0;
      const tb = sb[i]?.startsWith('{') ? 1 : 0;
      if (ta !== tb) return ta - tb;
    }
    return 0;
  });
  for (const op of ops) {
    router[op.method](
      expressPath(op.path),
      guard(op.operationId, accessOf(doc, op.operationId), op.path.includes('{chat_ref}')),
    );
  }
  return router;
}
