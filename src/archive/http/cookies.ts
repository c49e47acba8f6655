import type { Request, Response } from 'express';

// biome-ignore lint/suspicious/noExplicitAny: called from handlers of every typed route.
type AnyRequest = Request<any, any, any, any>;

import type { AuthConfig } from '../config';
import { cameOverHttps } from './client';

export const SESSION_COOKIE = 'viewer_auth';

/** `SECURE_COOKIES` when set; otherwise Secure only for a login that came over https. */
const secure = (req: AnyRequest, auth: AuthConfig) => auth.secureCookies ?? cameOverHttps(req);

export function setSessionCookie(req: AnyRequest, res: Response, key: string, auth: AuthConfig): void {
  res.cookie(SESSION_COOKIE, key, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: auth.sessionDays * 86_400_000,
    secure: secure(req, auth),
  });
}

export function clearSessionCookie(req: AnyRequest, res: Response, auth: AuthConfig): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure: secure(req, auth) });
}
