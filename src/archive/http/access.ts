/**
 * Who may call what, decided before the request is validated, so a caller without the right login
 * learns nothing from parameter errors. Each operation's level is its `x-access` mark in the document;
 * the viewer refuses to start when one is missing or unknown.
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
import { internalPushAllowed } from './internal-access';

/**
 * `public`: anyone; `login`: any login, anonymous included; `chat`: a login that can see the chat of
 * the route (a `{media_id}` route finds its chat in the handler); `master`: the master login or a proxy
 * admin, never with `X-Viewer-Only: true`; `internal`: other containers, by their own rules (source
 * address, secret, signature). Every `{chat_ref}` route past the login check also needs the chat to be
 * visible to the caller, whatever its level.
 */
export const ACCESS_LEVELS = ['public', 'login', 'chat', 'master', 'internal'] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

/** The two login routes share the login rate limit (a limit, not an access level: both are public). */
export const LOGIN_OPERATIONS = new Set(['login', 'loginWithToken']);

/** Every operation's `x-access` mark; throws naming the first operation without a valid one. */
// biome-ignore lint/suspicious/noExplicitAny: the bundled document is walked generically.
export function accessLevels(doc: any): Map<string, Access> {
  const levels = new Map<string, Access>();
  for (const op of documentedOperations(doc)) {
    const mark = doc.paths[op.path][op.method]['x-access'];
    if (!(ACCESS_LEVELS as readonly unknown[]).includes(mark)) {
      throw new Error(
        `operation ${op.operationId} (${op.method.toUpperCase()} ${op.path}) has no valid x-access mark` +
          ` (${ACCESS_LEVELS.join(', ')})`,
      );
    }
    levels.set(op.operationId, mark as Access);
  }
  return levels;
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
  const loginAttempt = LOGIN_OPERATIONS.has(operationId);
  return async (req, res, next) => {
    const state = requestState(res);
    if (state.guarded) return next();
    state.guarded = true;
    const d = deps(req);
    if (operationId === 'pushInternalUpdate' && !internalPushAllowed(req, d.config.internalPushSecret)) {
      throw new ArchiveError('forbidden', 'Forbidden');
    }
    if (loginAttempt) {
      const decision = d.limiter.attempt(clientIp(req, d.config.auth.trustProxyHeaders));
      if (!decision.allowed) {
        throw new ArchiveError(
          'too-many-requests',
          'Too many login attempts. Try again later.',
          decision.retryAfter,
        );
      }
    }
    if (access === 'public' || access === 'internal') return next();
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
// biome-ignore lint/suspicious/noExplicitAny: see accessLevels.
export function accessGuards(doc: any): Router {
  const levels = accessLevels(doc);
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
      guard(op.operationId, levels.get(op.operationId) as Access, op.path.includes('{chat_ref}')),
    );
  }
  return router;
}
