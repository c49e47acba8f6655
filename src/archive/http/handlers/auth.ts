import type { Request, Response } from 'express';
import { ArchiveError, AUTH_NOT_CONFIGURED } from '../../domain/errors';
import * as logins from '../../domain/login';
import type { Principal } from '../../domain/principal';
import { optionalPrincipal } from '../access';
import { readCookie, viewerOnly } from '../client';
import { attemptOrigin } from '../context';
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from '../cookies';
import type { ArchiveWiring } from '../wiring';
import type { ArchiveHandlers } from './types';

// biome-ignore lint/suspicious/noExplicitAny: any of the three login routes.
const loginDeps = (wiring: ArchiveWiring, req: Request<any, any, any, any>): logins.LoginDeps => {
  return {
    store: wiring.store,
    sessions: wiring.sessions,
    auth: wiring.config.auth,
    passwordIterations: wiring.passwordIterations,
    now: wiring.now,
    onAuditFailure: (error) => req.log.warn({ err: error }, 'audit entry not written'),
  };
};

export function authHandlers(wiring: ArchiveWiring) {
  return {
    login: async (req, res) => {
      if (!wiring.modes.configured) throw new ArchiveError('not-configured', AUTH_NOT_CONFIGURED);
      if (wiring.modes.anonymous) {
        res.json({ success: true, message: 'Anonymous access is enabled, no login needed' });
        return;
      }
      const { username, password } = req.body;
      const done = await logins.loginWithPassword(
        loginDeps(wiring, req),
        { username, password, viewerOnly: viewerOnly(req) },
        attemptOrigin(wiring, req),
      );
      req.log.info({ role: done.role }, 'login');
      setSessionCookie(req, res, done.key, wiring.config.auth);
      res.json({
        success: true,
        role: done.role === 'master' ? 'master' : 'viewer',
        username: done.username,
      });
    },
    loginWithToken: async (req, res) => {
      const done = await logins.loginWithToken(
        loginDeps(wiring, req),
        req.body.token,
        attemptOrigin(wiring, req),
      );
      req.log.info({ role: 'token' }, 'login');
      setSessionCookie(req, res, done.key, wiring.config.auth);
      res.json({
        success: true,
        role: 'token',
        username: done.username,
        no_download: done.noDownload,
        allowed_chat_refs: done.allowedChatRefs ?? [],
      });
    },
    checkAuth: async (req, res) => {
      const { modes } = wiring;
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
      const p = await callerOrNull(wiring, req, res);
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
    },
    logout: async (req, res) => {
      const key = readCookie(req, SESSION_COOKIE);
      if (key) {
        // Logging out always succeeds for the caller; a failure to end the stored session is only logged.
        await logins
          .logout(loginDeps(wiring, req), key, attemptOrigin(wiring, req))
          .catch((error: unknown) => req.log.warn({ err: error }, 'logout failed'));
        res.setHeader('Clear-Site-Data', '"cache"');
      }
      clearSessionCookie(req, res, wiring.config.auth);
      res.json({ success: true });
    },
  } satisfies ArchiveHandlers;
}

/** A caller the check cannot place (database down, inactive proxy account) is simply not logged in. */
async function callerOrNull(wiring: ArchiveWiring, req: Request, res: Response): Promise<Principal | null> {
  try {
    return await optionalPrincipal(wiring, req, res);
  } catch (error) {
    req.log.warn({ err: error }, 'login check failed');
    return null;
  }
}
