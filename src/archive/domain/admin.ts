/**
 * Administration use cases (master only): viewer accounts, share tokens, ending sessions and settings.
 * Every write is recorded in the audit log with who did it, from where.
 */

import type { AuthConfig } from '../config';
import { inexactId } from '../model/int64';
import {
  type ArchiveStore,
  type CreatedShareToken,
  type ShareToken,
  StoreConflictError,
  type ViewerAccount,
} from '../store/store';
import { conflict, invalid, notFound } from './errors';
import { hashPassword } from './passwords';
import type { SessionManager } from './sessions';
import { parseApiTimestamp } from './time';

export interface AdminDeps {
  store: ArchiveStore;
  sessions: SessionManager;
  auth: AuthConfig;
  passwordIterations: number;
}

/** Who acts, for the audit log. */
export interface Actor {
  username: string;
  role: string | null;
  endpoint: string;
  ipAddress: string | null;
  userAgent: string | null;
}

const USERNAME_TAKEN = 'Username already exists';
const VIEWER_NOT_FOUND = 'Viewer not found';
const TOKEN_NOT_FOUND = 'Token not found';

async function audit(store: ArchiveStore, actor: Actor, action: string): Promise<void> {
  await store.appendAudit({
    username: actor.username,
    role: actor.role,
    action,
    endpoint: actor.endpoint,
    ipAddress: actor.ipAddress,
    userAgent: actor.userAgent,
  });
}

async function checkRefs(store: ArchiveStore, refs: string[] | null | undefined): Promise<void> {
  if (!refs || refs.length === 0) return;
  const known = new Set(await store.existingChatRefs([...new Set(refs)]));
  const unknown = refs.filter((r) => !known.has(r));
  if (unknown.length > 0) throw invalid(`Unknown chat ref: ${unknown.join(', ')}`);
}

/** What two names that read alike have in common: compatibility-normalised, in lower case. */
const lookAlike = (name: string) => name.normalize('NFKC').toLowerCase();

/** Prefix of the names the archive gives share-link logins (their WebSocket slots and push clean-up). */
const RESERVED_PREFIX = 'token:';

/**
 * A viewer's name as stored: compatibility-normalised and trimmed (`demo ` is `demo`). A name holding an
 * invisible or control character (`dem\u200bo`) or starting with the share links' `token:` is refused, and
 * one that reads like the master's or another viewer's (`Demo` beside `demo`) is taken.
 */
async function viewerName(
  deps: AdminDeps,
  raw: string | undefined,
  self?: number,
): Promise<string | undefined> {
  if (raw === undefined) return undefined;
  const name = raw.normalize('NFKC').trim();
  if (/[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u.test(name)) {
    throw invalid('username: invisible and control characters are not allowed');
  }
  if ([...name].length < 3) throw invalid('username: must have at least 3 characters');
  if (name.toLowerCase().startsWith(RESERVED_PREFIX)) {
    throw invalid(`username: names starting with "${RESERVED_PREFIX}" are reserved for share links`);
  }
  const key = lookAlike(name);
  const master = deps.auth.master?.username;
  if (master !== undefined && lookAlike(master) === key) throw conflict(USERNAME_TAKEN);
  const taken = (await deps.store.listViewerAccounts()).some(
    (a) => a.id !== self && lookAlike(a.username) === key,
  );
  if (taken) throw conflict(USERNAME_TAKEN);
  return name;
}

/** An id list the reader could not keep exact (a number no 64-bit integer holds) is a 400. */
function checkAccountIds(ids: readonly number[] | null | undefined): void {
  const at = ids ? inexactId(ids) : -1;
  if (at >= 0) throw invalid(`allowed_accounts.${at}: must be a 64-bit integer`);
}

async function mapConflict<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof StoreConflictError) throw conflict(USERNAME_TAKEN);
    throw error;
  }
}

/** A yes/no field as clients send it: a JSON boolean, or 0/1. */
export type FlagInput = boolean | 0 | 1;

export interface ViewerInput {
  username?: string;
  /** On an update, an empty password keeps the current one. */
  password?: string;
  allowed_accounts?: number[] | null;
  allowed_chat_refs?: string[] | null;
  is_active?: FlagInput;
  no_download?: FlagInput;
}

const flag = (value: FlagInput | undefined): boolean | undefined =>
  value === undefined ? undefined : value === true || value === 1;

export async function createViewer(
  deps: AdminDeps,
  actor: Actor,
  input: ViewerInput & { username: string; password: string },
): Promise<ViewerAccount> {
  const username = (await viewerName(deps, input.username)) as string;
  checkAccountIds(input.allowed_accounts);
  await checkRefs(deps.store, input.allowed_chat_refs);
  const passwordHash = await hashPassword(input.password, deps.passwordIterations);
  const account = await mapConflict(
    deps.store.createViewerAccount({
      username,
      passwordHash,
      salt: passwordHash.split('$')[2] ?? '',
      allowedAccounts: input.allowed_accounts ?? null,
      allowedChatRefs: input.allowed_chat_refs ?? null,
      isActive: flag(input.is_active) ?? true,
      noDownload: flag(input.no_download) ?? false,
      createdBy: actor.username,
    }),
  );
  await audit(deps.store, actor, `viewer_created:${account.username}`);
  return account;
}

/**
 * Any change ends every session of the account. A body with no field is a 400; one whose fields hold what
 * is stored already (a settings form saved unchanged) changes nothing and answers the account.
 */
export async function updateViewer(
  deps: AdminDeps,
  actor: Actor,
  id: number,
  input: ViewerInput,
): Promise<ViewerAccount> {
  const username = await viewerName(deps, input.username, id);
  checkAccountIds(input.allowed_accounts);
  await checkRefs(deps.store, input.allowed_chat_refs);
  const passwordHash = input.password
    ? await hashPassword(input.password, deps.passwordIterations)
    : undefined;
  const isActive = flag(input.is_active);
  const noDownload = flag(input.no_download);
  const changed = await mapConflict(
    deps.store.updateViewerAccount(id, {
      ...(username !== undefined && { username }),
      ...(passwordHash !== undefined && { passwordHash, salt: passwordHash.split('$')[2] ?? '' }),
      ...(input.allowed_accounts !== undefined && { allowedAccounts: input.allowed_accounts }),
      ...(input.allowed_chat_refs !== undefined && { allowedChatRefs: input.allowed_chat_refs }),
      ...(isActive !== undefined && { isActive }),
      ...(noDownload !== undefined && { noDownload }),
    }),
  );
  if (!changed) throw notFound(VIEWER_NOT_FOUND);
  if (changed.changed.length === 0) {
    if (Object.values(input).every((value) => value === undefined)) throw invalid('No fields to update');
    return changed.account;
  }
  deps.sessions.forget(changed.ended);
  await audit(deps.store, actor, `viewer_updated:${changed.account.username}`);
  return changed.account;
}

export async function deleteViewer(deps: AdminDeps, actor: Actor, id: number): Promise<void> {
  const deleted = await deps.store.deleteViewerAccount(id);
  if (!deleted) throw notFound(VIEWER_NOT_FOUND);
  deps.sessions.forget(deleted.ended);
  await audit(deps.store, actor, `viewer_deleted:${deleted.account.username}`);
}

export interface TokenInput {
  label?: string | null;
  allowed_chat_refs: string[];
  no_download?: boolean;
  expires_at?: string | null;
}

export async function createToken(
  deps: AdminDeps,
  actor: Actor,
  input: TokenInput,
): Promise<CreatedShareToken> {
  await checkRefs(deps.store, input.allowed_chat_refs);
  const created = await deps.store.createShareToken({
    label: input.label?.trim() ? input.label.trim() : null,
    allowedChatRefs: [...new Set(input.allowed_chat_refs)],
    noDownload: input.no_download ?? false,
    expiresAt: input.expires_at ? parseApiTimestamp(input.expires_at, 'expires_at') : null,
    createdBy: actor.username,
  });
  await audit(deps.store, actor, `token_created:${created.id}`);
  return created;
}

export async function updateToken(
  deps: AdminDeps,
  actor: Actor,
  id: number,
  input: { label?: string | null; allowed_chat_refs?: string[]; is_revoked?: boolean; no_download?: boolean },
): Promise<ShareToken> {
  if (
    input.label === undefined &&
    input.allowed_chat_refs === undefined &&
    input.is_revoked === undefined &&
    input.no_download === undefined
  ) {
    throw invalid('No fields to update');
  }
  await checkRefs(deps.store, input.allowed_chat_refs);
  const changed = await deps.store.updateShareToken(id, {
    ...(input.label !== undefined && { label: input.label?.trim() ? input.label.trim() : null }),
    ...(input.allowed_chat_refs !== undefined && { allowedChatRefs: [...new Set(input.allowed_chat_refs)] }),
    ...(input.is_revoked !== undefined && { isRevoked: input.is_revoked }),
    ...(input.no_download !== undefined && { noDownload: input.no_download }),
  });
  if (!changed) throw notFound(TOKEN_NOT_FOUND);
  deps.sessions.forget(changed.ended);
  await audit(deps.store, actor, `token_updated:${id}`);
  return changed.token;
}

export async function deleteToken(deps: AdminDeps, actor: Actor, id: number): Promise<void> {
  const deleted = await deps.store.deleteShareToken(id);
  if (!deleted) throw notFound(TOKEN_NOT_FOUND);
  deps.sessions.forget(deleted.ended);
  await audit(deps.store, actor, `token_deleted:${id}`);
}

/** Ends every session; the caller's own is kept with keep_current. */
export async function endAllSessions(
  deps: AdminDeps,
  actor: Actor,
  callerKey: string | null,
  keepCurrent: boolean,
): Promise<{ ended: number; currentSessionEnded: boolean }> {
  const keep = keepCurrent ? callerKey : null;
  const ended = await deps.sessions.endAll(keep);
  await audit(deps.store, actor, keepCurrent ? 'sessions_ended_all:keep_current' : 'sessions_ended_all');
  return { ended: ended.length, currentSessionEnded: callerKey !== null && !keepCurrent };
}

export async function updateSetting(
  deps: AdminDeps,
  actor: Actor,
  key: string,
  value: string | number | boolean | null | undefined,
) {
  if (value === null || value === undefined) throw invalid('value is required');
  const stored = await deps.store.setSetting(key, String(value));
  await audit(deps.store, actor, `setting_updated:${key}`);
  return stored;
}

/** Recounts the whole archive now (slow on a large one). */
export async function refreshFigures(deps: AdminDeps, actor: Actor): Promise<void> {
  await deps.store.refreshArchiveFigures();
  await audit(deps.store, actor, 'stats_refreshed');
}
