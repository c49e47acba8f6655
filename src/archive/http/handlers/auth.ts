import type { Request } from 'express';
import { ArchiveError, AUTH_NOT_CONFIGURED } from '../../domain/errors';
import * as logins from '../../domain/login';
import type { Principal } from '../../domain/principal';
import { optionalPrincipal } from '../access';
import { readCookie, viewerOnly } from '../client';
import { attemptOrigin, deps } from '../context';
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from '../cookies';
import type { Handler } from './types';

// biome-ignore lint/suspicious/noExplicitAny: any of the three login routes.
const loginDeps = (req: Request<any, any, any, any>): logins.LoginDeps => {
  const d = deps(req);
  return {
    store: d.store,
    sessions: d.sessions,
    auth: d.config.auth,
    passwordIterations: d.passwordIterations,
    now: d.now,
    onAuditFailure: (error) => req.log.warn({ err: error }, 'audit entry not written'),
  };
};

export const login: Handler<'login'> = async (req, res) => {
  const d = deps(req);
  if (!d.modes.configured) throw new ArchiveError('not-configured', AUTH_NOT_CONFIGURED);
  if (d.modes.anonymous) {
    res.json({ success: true, message: 'Anonymous access is enabled, no login needed' });
    return;
  }
  const { username, password } = req.body;
  const done = await logins.loginWithPassword(
    loginDeps(req),
    { username, password, viewerOnly: viewerOnly(req) },
    attemptOrigin(req),
  );
  req.log.info({ role: done.role }, 'login');
  setSessionCookie(req, res, done.key, d.config.auth);
  res.json({ success: true, role: done.role === 'master' ? 'master' : 'viewer', username: done.username });
};

export const loginWithToken: Handler<'loginWithToken'> = async (req, res) => {
  const d = deps(req);
  const done = await logins.loginWithToken(loginDeps(req), req.body.token, attemptOrigin(req));
  req.log.info({ role: 'token' }, 'login');
  setSessionCookie(req, res, done.key, d.config.auth);
  res.json({
    success: true,
    role: 'token',
    username: done.username,
    no_download: done.noDownload,
    allowed_chat_refs: done.allowedChatRefs ?? [],
  });
};

/** A caller the check cannot place (database down, inactive proxy account) is simply not logged in. */
async function callerOrNull(...args: Parameters<typeof optionalPrincipal>): Promise<Principal | null> {
  try {
    return await optionalPrincipal(...args);
  } catch (error) {
    args[0].log.warn({ err: error }, 'login check failed');
    return null;
  }
}

export const checkAuth: Handler<'checkAuth'> = async (req, res) => {
  const { modes } = deps(req);
  const nobody = {
    authenticated: false,
    auth_required: true,
    role: null,
    username: null,
    no_download: false,
  };
  if (!modes.configured) {
    res.json({ ...nobody, setup_required: true });
    return;
  }
  const p = await callerOrNull(req, res);
  if (!p) {
    res.json(nobody);
    return;
  }
  res.json({
    authenticated: true,
    auth_required: !modes.anonymous,
    role: p.role,
    username: p.username,
    no_download: p.noDownload,
    ...(p.via === 'proxy' && { proxy_auth: true }),
  });
};

export const logout: Handler<'logout'> = async (req, res) => {
  const d = deps(req);
  const key = readCookie(req, SESSION_COOKIE);
  if (key) {
    // Logging out always succeeds for the caller; a failure to end the stored session is only logged.
    await logins
      .logout(loginDeps(req), key, attemptOrigin(req))
      .catch((error: unknown) => req.log.warn({ err: error }, 'logout failed'));
    res.setHeader('Clear-Site-Data', '"cache"');
  }
  clearSessionCookie(req, res, d.config.auth);
  res.json({ success: true });
};
