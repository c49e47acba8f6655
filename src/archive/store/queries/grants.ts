import { createHash, randomBytes } from 'node:crypto';
import { stringifyJson } from '../../model/int64';
import type { Driver, Row } from '../driver';
import { isUniqueViolation } from '../driver';
import { StoreConflictError } from '../errors';
import { bool, idList, iso, isoRequired, parseJson, str } from '../rows';
import { join, json, raw, type Sql, sql } from '../sql';
import type {
  CreatedShareToken,
  NewShareToken,
  NewViewerAccount,
  ShareToken,
  ShareTokenChange,
  ShareTokenPatch,
  ViewerAccount,
  ViewerAccountChange,
  ViewerAccountPatch,
  ViewerAccountWithSecret,
} from '../types';
import type { Db } from './common';
import { deletePushSubscriptionsOfUsers, endSessionsWhere, endTokenSessions } from './session-ends';

const tokenHashOf = (token: string) => createHash('sha256').update(token.toLowerCase(), 'utf8').digest('hex');

function toViewerAccount(r: Row): ViewerAccount {
  return {
    id: Number(r.id),
    username: String(r.username),
    allowed_accounts: idList(r.allowed_accounts),
    allowed_chat_refs: parseJson<string[]>(r.allowed_chat_refs),
    is_active: bool(r.is_active),
    no_download: bool(r.no_download),
    created_by: str(r.created_by),
    created_at: isoRequired(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

export async function listViewerAccounts(db: Db): Promise<ViewerAccount[]> {
  return (await db.all(sql`SELECT * FROM viewer_accounts ORDER BY id`)).map(toViewerAccount);
}

export async function getViewerAccount(db: Db, id: number): Promise<ViewerAccount | null> {
  const row = await db.get(sql`SELECT * FROM viewer_accounts WHERE id = ${id}`);
  return row ? toViewerAccount(row) : null;
}

export async function findViewerAccountByUsername(
  db: Db,
  username: string,
): Promise<ViewerAccountWithSecret | null> {
  const row = await db.get(sql`SELECT * FROM viewer_accounts WHERE username = ${username}`);
  return row
    ? { ...toViewerAccount(row), password_hash: String(row.password_hash), salt: String(row.salt) }
    : null;
}

async function conflictAware<T>(username: string | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw new StoreConflictError(`username ${username ?? ''} is taken`.trim());
    throw err;
  }
}

export async function createViewerAccount(
  db: Db,
  a: NewViewerAccount,
  now = new Date(),
): Promise<ViewerAccount> {
  return conflictAware(a.username, async () => {
    const row = await db.get(sql`INSERT INTO viewer_accounts (username, password_hash, salt, allowed_accounts,
        allowed_chat_refs, is_active, no_download, created_by, created_at)
      VALUES (${a.username}, ${a.passwordHash}, ${a.salt}, ${json(a.allowedAccounts)}, ${json(a.allowedChatRefs)},
        ${a.isActive}, ${a.noDownload}, ${a.createdBy}, ${now})
      RETURNING *`);
    return toViewerAccount(row as Row);
  });
}

const sameJson = (a: unknown, b: unknown) => stringifyJson(a ?? null) === stringifyJson(b ?? null);

export async function updateViewerAccount(
  driver: Driver,
  id: number,
  patch: ViewerAccountPatch,
  now = new Date(),
): Promise<ViewerAccountChange | null> {
  return conflictAware(patch.username, () =>
    driver.transaction(async (tx) => {
      const current = await tx.get(sql`SELECT * FROM viewer_accounts WHERE id = ${id}`);
      if (!current) return null;
      const before = toViewerAccount(current);
      const sets: Sql[] = [];
      const changed: string[] = [];
      const set = (column: string, value: unknown, differs: boolean) => {
        if (!differs) return;
        changed.push(column);
        sets.push(sql`${sqlIdent(column)} = ${value}`);
      };
      if (patch.username !== undefined) set('username', patch.username, patch.username !== before.username);
      if (patch.passwordHash !== undefined) {
        set('password_hash', patch.passwordHash, true);
        set('salt', patch.salt ?? '', true);
      }
      if (patch.allowedAccounts !== undefined) {
        set(
          'allowed_accounts',
          json(patch.allowedAccounts),
          !sameJson(patch.allowedAccounts, before.allowed_accounts),
        );
      }
      if (patch.allowedChatRefs !== undefined) {
        set(
          'allowed_chat_refs',
          json(patch.allowedChatRefs),
          !sameJson(patch.allowedChatRefs, before.allowed_chat_refs),
        );
      }
      if (patch.isActive !== undefined) set('is_active', patch.isActive, patch.isActive !== before.is_active);
      if (patch.noDownload !== undefined)
        set('no_download', patch.noDownload, patch.noDownload !== before.no_download);
      if (sets.length === 0) return { account: before, ended: [], changed };
      sets.push(sql`updated_at = ${now}`);
      const row = await tx.get(sql`UPDATE viewer_accounts SET ${join(sets)} WHERE id = ${id} RETURNING *`);
      const ended = await endSessionsWhere(
        tx,
        sql`viewer_account_id = ${id} OR (role = 'viewer' AND username = ${before.username})`,
      );
      await deletePushSubscriptionsOfUsers(tx, [before.username, ...ended.map((e) => e.username)]);
      return { account: toViewerAccount(row as Row), ended, changed };
    }),
  );
}

export async function deleteViewerAccount(driver: Driver, id: number): Promise<ViewerAccountChange | null> {
  return driver.transaction(async (tx) => {
    const row = await tx.get(sql`DELETE FROM viewer_accounts WHERE id = ${id} RETURNING *`);
    if (!row) return null;
    const account = toViewerAccount(row);
    const ended = await endSessionsWhere(
      tx,
      sql`viewer_account_id = ${id} OR (role = 'viewer' AND username = ${account.username})`,
    );
    await deletePushSubscriptionsOfUsers(tx, [account.username]);
    return { account, ended, changed: ['deleted'] };
  });
}

const COLUMNS = new Set([
  'username',
  'password_hash',
  'salt',
  'allowed_accounts',
  'allowed_chat_refs',
  'is_active',
  'no_download',
  'label',
  'is_revoked',
]);

function sqlIdent(column: string): Sql {
  if (!COLUMNS.has(column)) throw new Error(`not an updatable column: ${column}`);
  return raw(column);
}

function toShareToken(r: Row): ShareToken {
  return {
    id: Number(r.id),
    label: str(r.label),
    created_by: str(r.created_by),
    allowed_accounts: idList(r.allowed_accounts),
    allowed_chat_refs: parseJson<string[]>(r.allowed_chat_refs) ?? [],
    is_revoked: bool(r.is_revoked),
    no_download: bool(r.no_download),
    expires_at: iso(r.expires_at),
    last_used_at: iso(r.last_used_at),
    use_count: Number(r.use_count ?? 0),
    created_at: isoRequired(r.created_at),
  };
}

const cleanLabel = (label: string | null | undefined) => {
  const trimmed = label?.trim();
  return trimmed ? trimmed : null;
};

/** The session username of a share token: `token:<label>`, or `token:token:<id>` without a label. */
export const shareTokenUsername = (token: Pick<ShareToken, 'id' | 'label'>) =>
  `token:${token.label ?? `token:${token.id}`}`;

export async function listShareTokens(db: Db): Promise<ShareToken[]> {
  return (await db.all(sql`SELECT * FROM viewer_tokens ORDER BY id`)).map(toShareToken);
}

export async function getShareToken(db: Db, id: number): Promise<ShareToken | null> {
  const row = await db.get(sql`SELECT * FROM viewer_tokens WHERE id = ${id}`);
  return row ? toShareToken(row) : null;
}

export async function createShareToken(db: Db, t: NewShareToken): Promise<CreatedShareToken> {
  const token = randomBytes(32).toString('hex');
  const row = await db.get(sql`INSERT INTO viewer_tokens (label, token_hash, created_by, allowed_accounts,
      allowed_chat_refs, no_download, expires_at, created_at)
    VALUES (${cleanLabel(t.label)}, ${tokenHashOf(token)}, ${t.createdBy}, ${json(t.allowedAccounts ?? null)},
      ${json(t.allowedChatRefs)}, ${t.noDownload}, ${t.expiresAt}, ${t.now ?? new Date()})
    RETURNING *`);
  const saved = toShareToken(row as Row);
  return {
    id: saved.id,
    label: saved.label,
    token,
    allowed_chat_refs: saved.allowed_chat_refs,
    no_download: saved.no_download,
    expires_at: saved.expires_at,
    created_at: saved.created_at,
  };
}

export async function updateShareToken(
  driver: Driver,
  id: number,
  patch: ShareTokenPatch,
): Promise<ShareTokenChange | null> {
  return driver.transaction(async (tx) => {
    const current = await tx.get(sql`SELECT * FROM viewer_tokens WHERE id = ${id}`);
    if (!current) return null;
    const before = toShareToken(current);
    const sets: Sql[] = [];
    const changed: string[] = [];
    const set = (column: string, value: unknown, differs: boolean) => {
      if (!differs) return;
      changed.push(column);
      sets.push(sql`${sqlIdent(column)} = ${value}`);
    };
    if (patch.label !== undefined)
      set('label', cleanLabel(patch.label), cleanLabel(patch.label) !== before.label);
    if (patch.allowedChatRefs !== undefined) {
      set(
        'allowed_chat_refs',
        json(patch.allowedChatRefs),
        !sameJson(patch.allowedChatRefs, before.allowed_chat_refs),
      );
    }
    if (patch.isRevoked !== undefined)
      set('is_revoked', patch.isRevoked, patch.isRevoked !== before.is_revoked);
    if (patch.noDownload !== undefined)
      set('no_download', patch.noDownload, patch.noDownload !== before.no_download);
    if (sets.length === 0) return { token: before, ended: [], changed };
    const row = await tx.get(sql`UPDATE viewer_tokens SET ${join(sets)} WHERE id = ${id} RETURNING *`);
    const endsSessions = changed.some((c) => c !== 'label');
    const ended = endsSessions ? await endTokenSessions(tx, id) : [];
    return { token: toShareToken(row as Row), ended, changed };
  });
}

export async function deleteShareToken(driver: Driver, id: number): Promise<ShareTokenChange | null> {
  return driver.transaction(async (tx) => {
    const row = await tx.get(sql`DELETE FROM viewer_tokens WHERE id = ${id} RETURNING *`);
    if (!row) return null;
    const ended = await endTokenSessions(tx, id);
    return { token: toShareToken(row), ended, changed: ['deleted'] };
  });
}

export async function redeemShareToken(
  db: Db,
  plaintext: string,
  now = new Date(),
): Promise<ShareToken | null> {
  if (!/^[0-9a-fA-F]{64}$/.test(plaintext)) return null;
  const row = await db.get(sql`UPDATE viewer_tokens SET use_count = use_count + 1, last_used_at = ${now}
    WHERE token_hash = ${tokenHashOf(plaintext)} AND is_revoked = FALSE
      AND (expires_at IS NULL OR expires_at > ${now})
    RETURNING *`);
  return row ? toShareToken(row) : null;
}
