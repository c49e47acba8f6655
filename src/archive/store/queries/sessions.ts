import { createHash, randomBytes } from 'node:crypto';
import type { Driver, Row } from '../driver';
import { bool, idList, isoRequired, num, parseJson, str } from '../rows';
import { json, list, sql } from '../sql';
import type { CreatedSession, EndedSession, NewSession, Session, SessionRole } from '../types';
import type { Db } from './common';
import { deletePushSubscriptionsOfUsers, endSessionsWhere, endTokenSessions } from './session-ends';

export const MAX_SESSIONS_PER_USER = 10;

/** The stored id of a session: SHA-256 of its cookie key. */
export const sessionIdOf = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

function toSession(r: Row): Session {
  return {
    id: String(r.id),
    username: String(r.username),
    role: r.role as SessionRole,
    allowedAccounts: idList(r.allowed_accounts),
    allowedChatRefs: parseJson<string[]>(r.allowed_chat_refs),
    noDownload: bool(r.no_download),
    viewerAccountId: num(r.viewer_account_id),
    sourceTokenId: num(r.source_token_id),
    createdAt: new Date(isoRequired(r.created_at)),
    lastAccessedAt: new Date(isoRequired(r.last_accessed_at)),
    expiresAt: new Date(isoRequired(r.expires_at)),
  };
}

export async function createSession(driver: Driver, s: NewSession): Promise<CreatedSession> {
  const key = randomBytes(32).toString('base64url');
  const id = sessionIdOf(key);
  const now = s.now ?? new Date();
  const expires = new Date(now.getTime() + s.lifetimeMs);
  return driver.transaction(async (tx) => {
    await tx.run(sql`INSERT INTO viewer_sessions (id, username, role, allowed_accounts, allowed_chat_refs,
        no_download, viewer_account_id, source_token_id, created_at, last_accessed_at, expires_at)
      VALUES (${id}, ${s.username}, ${s.role}, ${json(s.allowedAccounts)}, ${json(s.allowedChatRefs)},
        ${s.noDownload}, ${s.viewerAccountId ?? null}, ${s.sourceTokenId ?? null}, ${now}, ${now}, ${expires})`);
    const others =
      await tx.all(sql`SELECT id FROM viewer_sessions WHERE username = ${s.username} AND id <> ${id}
      ORDER BY created_at DESC, last_accessed_at DESC, id`);
    const surplus = others.slice(MAX_SESSIONS_PER_USER - 1).map((r) => String(r.id));
    const evicted = surplus.length > 0 ? await endSessionsWhere(tx, sql`id IN ${list(surplus)}`) : [];
    const row = await tx.get(sql`SELECT * FROM viewer_sessions WHERE id = ${id}`);
    return { key, session: toSession(row as Row), evicted };
  });
}

export async function getSession(db: Db, key: string, now = new Date()): Promise<Session | null> {
  const row = await db.get(
    sql`SELECT * FROM viewer_sessions WHERE id = ${sessionIdOf(key)} AND expires_at > ${now}`,
  );
  return row ? toSession(row) : null;
}

export async function touchSession(db: Db, key: string, now = new Date()): Promise<void> {
  await db.run(sql`UPDATE viewer_sessions SET last_accessed_at = ${now} WHERE id = ${sessionIdOf(key)}`);
}

export async function endSession(driver: Driver, key: string): Promise<EndedSession | null> {
  return driver.transaction(async (tx) => {
    const [ended] = await endSessionsWhere(tx, sql`id = ${sessionIdOf(key)}`);
    if (ended) await deletePushSubscriptionsOfUsers(tx, [ended.username]);
    return ended ?? null;
  });
}

export async function endSessionsOfUser(driver: Driver, username: string): Promise<EndedSession[]> {
  return driver.transaction(async (tx) => {
    const ended = await endSessionsWhere(tx, sql`username = ${username}`);
    await deletePushSubscriptionsOfUsers(tx, [username]);
    return ended;
  });
}

export async function endSessionsOfToken(driver: Driver, tokenId: number): Promise<EndedSession[]> {
  return driver.transaction(async (tx) => endTokenSessions(tx, tokenId));
}

export async function endAllSessions(
  driver: Driver,
  options: { keepKey?: string } = {},
): Promise<EndedSession[]> {
  return driver.transaction(async (tx) => {
    const keepId = options.keepKey ? sessionIdOf(options.keepKey) : null;
    const kept = keepId
      ? await tx.get(sql`SELECT username FROM viewer_sessions WHERE id = ${keepId}`)
      : undefined;
    const ended = await endSessionsWhere(tx, keepId ? sql`id <> ${keepId}` : sql`TRUE`);
    const keptUser = str(kept?.username);
    await deletePushSubscriptionsOfUsers(
      tx,
      ended.map((e) => e.username).filter((u) => u !== keptUser),
    );
    return ended;
  });
}

export async function deletePushSubscriptionsOfUser(db: Db, username: string): Promise<number> {
  return deletePushSubscriptionsOfUsers(db, [username]);
}

export async function liveSessionIds(db: Db, ids: string[], now = new Date()): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.all(
    sql`SELECT id FROM viewer_sessions WHERE id IN ${list(ids)} AND expires_at > ${now}`,
  );
  return rows.map((r) => String(r.id));
}

export async function purgeExpiredSessions(db: Db, now = new Date()): Promise<EndedSession[]> {
  return endSessionsWhere(db, sql`expires_at <= ${now}`);
}
