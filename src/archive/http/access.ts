/**
 * Who may call what, decided before the request is validated, so a caller without the right login
 * learns nothing from parameter errors. Each operation's level is its `x-access` mark in the document;
 * the viewer refuses to start when one is missing or unknown.
 */
import type { IncomingMessage } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { readContext, writeContext } from '../../common/http/context';
import { matchedOperation, pathParam } from '../../common/http/matched-operation';
import { documentedOperations } from '../../common/http/operations';
import { changesState, sameOriginRequest } from '../../common/http/origin';
import {
  ADMIN_REQUIRED,
  ArchiveError,
  AUTH_NOT_CONFIGURED,
  CHAT_NOT_FOUND,
  CROSS_SITE_REFUSED,
  NOT_AUTHENTICATED,
} from '../domain/errors';
import { proxyPrincipal } from '../domain/login';
import { ANONYMOUS, isMaster, type Principal, visibilityOf } from '../domain/principal';
import { clientIp, readCookie, viewerOnly } from './client';
import { CHAT, PRINCIPAL } from './context';
import { drainBody } from './internal-access';
import type { ArchiveWiring } from './wiring';

/**
 * `public`: anyone; `login`: any login, anonymous included; `chat`: a login that can see the chat of
 * the route (a `{media_id}` route finds its chat in the handler); `master`: the master login or a proxy
 * admin, never with `X-Viewer-Only: true`; `internal`: other containers, by their own rules (source
 * address, secret, signature). Every `{chat_ref}` route past the login check also needs the chat to be
 * visible to the caller, whatever its level.
 */
export const ACCESS_LEVELS = ['public', 'login', 'chat', 'master', 'internal'] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

/**
 * The login limit, a hook of the two login operations (app.ts), which share it: a limit, not an access
 * level (both are public). Counted per client before the password or token is looked at.
 */
export function loginLimit(wiring: ArchiveWiring): RequestHandler {
  return (req, _res, next) => {
    const decision = wiring.limiter.attempt(clientIp(req, wiring.config.auth.trustProxyHeaders));
    if (decision.allowed) return next();
    throw new ArchiveError(
      'too-many-requests',
      'Too many login attempts. Try again later.',
      decision.retryAfter,
    );
  };
}

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

/**
 * Authenticates the caller (proxy header, session cookie, anonymous mode); null when nobody. HTTP requests
 * and WebSocket upgrades alike: it reads only the request's headers and its connection's peer.
 */
export async function authenticate(wiring: ArchiveWiring, req: IncomingMessage): Promise<Principal | null> {
  const proxy = wiring.config.auth.proxy;
  // The identity header counts only from the proxy itself (the socket peer, never a forwarded address).
  if (proxy?.trusted.has(req.socket.remoteAddress)) {
    const name = String(req.headers[proxy.header] ?? '').trim();
    if (name) return proxyPrincipal({ ...wiring, auth: wiring.config.auth }, name);
  }
  const key = readCookie(req, COOKIE);
  if (key) {
    const session = await wiring.sessions.resolve(key);
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
  // The anonymous login only for the viewer's own names: a page of another site whose name resolves to the
  // viewer's address (DNS rebinding) gets nobody.
  return wiring.modes.anonymous && wiring.ownHost(req) ? ANONYMOUS : null;
}

/** The caller of a public route, when there is one (memoised per request). */
export async function optionalPrincipal(
  wiring: ArchiveWiring,
  req: IncomingMessage,
  res: Response,
): Promise<Principal | null> {
  const known = readContext(res.req, PRINCIPAL);
  if (known !== undefined) return known;
  const found = await authenticate(wiring, req);
  writeContext(res.req, PRINCIPAL, found);
  return found;
}

/**
 * How each `internal` operation knows its caller (its own rule: a source address and secret, a signature
 * over the body), run by its guard in place of a login. Every `internal` operation has one and only they
 * do, or the guards refuse to be built: a new internal route cannot be reached by nobody's rule.
 */
export type CallerRules = Readonly<Record<string, RequestHandler>>;

/**
 * The guard of every documented operation, bound to the operation the front door matched (never to the
 * path as spelled): its level, and for `{chat_ref}` routes the chat, found visible to the caller. Only a
 * matched request reaches it; one without an operation would go no further.
 */
// biome-ignore lint/suspicious/noExplicitAny: see accessLevels.
export function accessGuards(doc: any, wiring: ArchiveWiring, callers: CallerRules): RequestHandler {
  const levels = accessLevels(doc);
  const internal = [...levels].filter(([, level]) => level === 'internal').map(([id]) => id);
  const unruled = internal.filter((id) => !Object.hasOwn(callers, id));
  const stray = Object.keys(callers).filter((id) => levels.get(id) !== 'internal');
  if (unruled.length > 0 || stray.length > 0) {
    throw new Error(
      `caller rules must cover exactly the internal operations: ${[
        ...unruled.map((id) => `${id} has none`),
        ...stray.map((id) => `${id} is not internal`),
      ].join(', ')}`,
    );
  }
  return async (req, res, next) => {
    const operation = matchedOperation(req);
    if (!operation) throw new ArchiveError('not-found', 'Not Found');
    const { operationId } = operation;
    const access = levels.get(operationId) as Access;
    if (access === 'internal') return (callers[operationId] as RequestHandler)(req, res, next);
    if (changesState(req.method) && !sameOriginRequest(req.headers, wiring.config.corsOrigins)) {
      // A page of another origin (another port of this host included) acting with whatever the browser
      // sends for it: the viewer's cookie, a single-sign-on proxy's own cookie, an address the proxy trusts.
      await drainBody(req);
      throw new ArchiveError('forbidden', CROSS_SITE_REFUSED);
    }
    if (access === 'public') return next();
    if (!wiring.modes.configured) throw new ArchiveError('not-configured', AUTH_NOT_CONFIGURED);
    const p = await optionalPrincipal(wiring, req, res);
    if (!p) throw new ArchiveError('unauthenticated', NOT_AUTHENTICATED);
    if (access === 'master' && (!isMaster(p) || viewerOnly(req))) {
      throw new ArchiveError('forbidden', ADMIN_REQUIRED);
    }
    if (operation.template.includes('{chat_ref}')) {
      const ref = pathParam(operation, 'chat_ref');
      const found =
        ref === undefined
          ? undefined
          : await wiring.store.findChat(visibilityOf(p, wiring.config.displayChatIds), ref);
      if (!found) throw new ArchiveError('not-found', CHAT_NOT_FOUND);
      writeContext(res.req, CHAT, found);
    }
    next();
  };
}
