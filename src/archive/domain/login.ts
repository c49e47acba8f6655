/**
 * The login use cases: password (viewer accounts first, then the master credentials), share tokens and
 * proxy identities. Plain functions over the store and the session manager; no HTTP here.
 */
import { randomBytes } from 'node:crypto';
import type { AuthConfig } from '../config';
import {
  type ArchiveStore,
  DatabaseUnavailableError,
  type ShareToken,
  shareTokenUsername,
  type ViewerAccount,
} from '../store/store';
import {
  ArchiveError,
  DATABASE_UNAVAILABLE,
  INVALID_CREDENTIALS,
  INVALID_TOKEN,
  NOT_AUTHENTICATED,
} from './errors';
import { decoyHash, hashPassword, verifyPassword } from './passwords';
import type { Principal } from './principal';
import { constantTimeEqual } from './secrets';
import type { SessionManager } from './sessions';

export interface LoginDeps {
  store: ArchiveStore;
  sessions: SessionManager;
  auth: AuthConfig;
  passwordIterations: number;
  now?: () => number;
  /** Told when an audit entry could not be written (the login itself goes on). */
  onAuditFailure?: (error: unknown) => void;
}

/** Where a login attempt came from, for the audit log. */
export interface AttemptOrigin {
  endpoint: string;
  ipAddress: string | null;
  userAgent: string | null;
}

/** Audit actions of logins; the entry never holds a password or a token. */
export const LOGIN_ACTIONS = {
  success: 'login_success',
  failed: 'login_failed',
  logout: 'logout',
  tokenSuccess: 'token_auth_success',
  tokenFailed: 'token_auth_failed',
} as const;

/** Longest attempted username kept in a `login_failed` entry. */
const MAX_AUDITED_USERNAME = 150;

async function auditAttempt(
  deps: LoginDeps,
  origin: AttemptOrigin | undefined,
  entry: { username: string; role: string | null; action: string },
): Promise<void> {
  if (!origin) return;
  try {
    await deps.store.appendAudit({ ...entry, ...origin });
  } catch (error) {
    deps.onAuditFailure?.(error);
  }
}

export interface LoggedIn {
  key: string;
  role: 'master' | 'viewer' | 'token';
  username: string;
  noDownload: boolean;
  allowedChatRefs: string[] | null;
}

const unauthenticated = (detail: string) => new ArchiveError('unauthenticated', detail);

/** A password login, recorded in the audit log as `login_success` or `login_failed` (when `origin` is given). */
export async function loginWithPassword(
  deps: LoginDeps,
  input: { username: string; password: string; viewerOnly: boolean },
  origin?: AttemptOrigin,
): Promise<LoggedIn> {
  let done: LoggedIn;
  try {
    done = await passwordLogin(deps, input);
  } catch (error) {
    if (error instanceof ArchiveError && error.kind === 'unauthenticated') {
      const username = input.username.slice(0, MAX_AUDITED_USERNAME);
      await auditAttempt(deps, origin, { username, role: null, action: LOGIN_ACTIONS.failed });
    }
    throw error;
  }
  await auditAttempt(deps, origin, {
    username: done.username,
    role: done.role,
    action: LOGIN_ACTIONS.success,
  });
  return done;
}

async function passwordLogin(
  deps: LoginDeps,
  input: { username: string; password: string; viewerOnly: boolean },
): Promise<LoggedIn> {
  let account: Awaited<ReturnType<ArchiveStore['findViewerAccountByUsername']>> = null;
  let databaseDown = false;
  try {
    account = await deps.store.findViewerAccountByUsername(input.username);
  } catch (error) {
    if (!(error instanceof DatabaseUnavailableError)) throw error;
    databaseDown = true;
  }
  // Always spend one hash, so the answer time does not reveal whether the username exists.
  const passwordOk = await verifyPassword(
    input.password,
    account?.password_hash ?? decoyHash(deps.passwordIterations),
  );
  if (account && passwordOk && account.is_active) {
    const created = await deps.sessions.open({
      username: account.username,
      role: 'viewer',
      allowedAccounts: account.allowed_accounts,
      allowedChatRefs: account.allowed_chat_refs,
      noDownload: account.no_download,
      viewerAccountId: account.id,
    });
    return {
      key: created.key,
      role: 'viewer',
      username: account.username,
      noDownload: account.no_download,
      allowedChatRefs: account.allowed_chat_refs,
    };
  }
  const master = deps.auth.master;
  if (master && !account) {
    // Both comparisons always run: no early exit tells which part was wrong.
    const userOk = constantTimeEqual(input.username, master.username);
    const passOk = constantTimeEqual(input.password, master.password);
    if (userOk && passOk && !input.viewerOnly) {
      const created = await deps.sessions.open({
        username: master.username,
        role: 'master',
        allowedAccounts: null,
        allowedChatRefs: null,
        noDownload: false,
      });
      return {
        key: created.key,
        role: 'master',
        username: master.username,
        noDownload: false,
        allowedChatRefs: null,
      };
    }
  }
  if (databaseDown) throw new ArchiveError('unavailable', DATABASE_UNAVAILABLE);
  throw unauthenticated(INVALID_CREDENTIALS);
}

/**
 * A share-token login, recorded as `token_auth_success:<token id>` or `token_auth_failed` (when `origin`
 * is given); the token itself is never written.
 */
const SHARE_TOKEN = /^[0-9a-f]{64}$/;

export async function loginWithToken(
  deps: LoginDeps,
  plaintext: string,
  origin?: AttemptOrigin,
): Promise<LoggedIn> {
  let token: ShareToken | null = null;
  // As the upstream viewer: the value is stripped, and anything that is no token is an unknown token.
  const value = plaintext.trim().toLowerCase();
  try {
    if (SHARE_TOKEN.test(value))
      token = await deps.store.redeemShareToken(value, new Date((deps.now ?? Date.now)()));
  } catch (error) {
    // The seed's one exception to 503: this route says 500 'Database not available'.
    if (error instanceof DatabaseUnavailableError)
      throw new ArchiveError('internal', 'Database not available');
    throw error;
  }
  if (!token) {
    await auditAttempt(deps, origin, { username: 'token', role: null, action: LOGIN_ACTIONS.tokenFailed });
    throw unauthenticated(INVALID_TOKEN);
  }
  const username = shareTokenUsername(token);
  const created = await deps.sessions.open({
    username,
    role: 'token',
    allowedAccounts: token.allowed_accounts,
    allowedChatRefs: token.allowed_chat_refs,
    noDownload: token.no_download,
    sourceTokenId: token.id,
  });
  await auditAttempt(deps, origin, {
    username,
    role: 'token',
    action: `${LOGIN_ACTIONS.tokenSuccess}:${token.id}`,
  });
  return {
    key: created.key,
    role: 'token',
    username,
    noDownload: token.no_download,
    allowedChatRefs: token.allowed_chat_refs,
  };
}

/** Ends the session of this cookie key; a session that existed is recorded as `logout`. */
export async function logout(deps: LoginDeps, key: string, origin?: AttemptOrigin): Promise<void> {
  const ended = await deps.sessions.end(key);
  if (ended) {
    await auditAttempt(deps, origin, {
      username: ended.username,
      role: ended.role,
      action: LOGIN_ACTIONS.logout,
    });
  }
}

/**
 * A request carrying the proxy's identity header. Listed admins are the master; anyone else is a viewer
 * account, created on first visit with every chat (`AUTH_PROXY_DEFAULT_ACCESS=all`) or none, for the
 * master to grant. An inactive account is refused.
 */
export async function proxyPrincipal(deps: LoginDeps, username: string): Promise<Principal> {
  const proxy = deps.auth.proxy;
  if (proxy?.adminUsers.includes(username)) {
    return {
      via: 'proxy',
      role: 'master',
      username,
      allowedAccounts: null,
      allowedChatRefs: null,
      noDownload: false,
      sessionKey: null,
    };
  }
  let account: ViewerAccount | null = await deps.store.findViewerAccountByUsername(username);
  if (!account) account = await createProxyAccount(deps, username, proxy?.defaultAccess === 'all');
  if (!account.is_active) throw unauthenticated(NOT_AUTHENTICATED);
  return {
    via: 'proxy',
    role: 'viewer',
    username: account.username,
    allowedAccounts: account.allowed_accounts,
    allowedChatRefs: account.allowed_chat_refs,
    noDownload: account.no_download,
    sessionKey: null,
  };
}

async function createProxyAccount(deps: LoginDeps, username: string, allChats: boolean) {
  // The proxy vouches for the identity: the account gets a random password nobody knows.
  const passwordHash = await hashPassword(randomBytes(24).toString('base64url'), deps.passwordIterations);
  try {
    return await deps.store.createViewerAccount({
      username,
      passwordHash,
      salt: passwordHash.split('$')[2] ?? '',
      allowedAccounts: null,
      allowedChatRefs: allChats ? null : [],
      isActive: true,
      noDownload: false,
      createdBy: 'proxy',
    });
  } catch (error) {
    // Two first requests at once: the other one created it.
    const existing = await deps.store.findViewerAccountByUsername(username);
    if (existing) return existing;
    throw error;
  }
}
