import { bool, parseJson, str } from '../rows';
import { json, sql } from '../sql';
import type { ChatKey, NewPushSubscription, PushSubscriptionRow } from '../types';
import type { Db } from './common';

/** Stores a subscription; the same endpoint posted again replaces the earlier one. */
export async function savePushSubscription(db: Db, s: NewPushSubscription, now = new Date()): Promise<void> {
  await db.run(sql`INSERT INTO push_subscriptions (endpoint, p256dh, auth, username, session_id, account_id,
      chat_id, chat_ref, allowed_accounts, allowed_chat_refs, user_agent, created_at, no_download)
    VALUES (${s.endpoint}, ${s.p256dh}, ${s.auth}, ${s.username}, ${s.sessionId}, ${s.accountId},
      ${s.chatId}, ${s.chatRef}, ${json(s.allowedAccounts)}, ${json(s.allowedChatRefs)}, ${s.userAgent}, ${now},
      ${s.noDownload})
    ON CONFLICT (endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth,
      username = excluded.username, session_id = excluded.session_id, account_id = excluded.account_id,
      chat_id = excluded.chat_id, chat_ref = excluded.chat_ref, allowed_accounts = excluded.allowed_accounts,
      allowed_chat_refs = excluded.allowed_chat_refs, user_agent = excluded.user_agent,
      created_at = excluded.created_at, no_download = excluded.no_download, last_used_at = NULL`);
}

/** Removes the caller's subscription with this endpoint; false when it has none. */
export async function deletePushSubscription(
  db: Db,
  endpoint: string,
  username: string | null,
): Promise<boolean> {
  const { changes } = await db.run(sql`DELETE FROM push_subscriptions WHERE endpoint = ${endpoint}
    AND ${username === null ? sql`username IS NULL` : sql`username = ${username}`}`);
  return changes > 0;
}

/** A push service said the subscription is gone (404/410). */
export async function dropPushSubscription(db: Db, endpoint: string): Promise<void> {
  await db.run(sql`DELETE FROM push_subscriptions WHERE endpoint = ${endpoint}`);
}

export async function touchPushSubscription(db: Db, endpoint: string, now = new Date()): Promise<void> {
  await db.run(sql`UPDATE push_subscriptions SET last_used_at = ${now} WHERE endpoint = ${endpoint}`);
}

/** Subscriptions that may hear about this chat: every-chat ones and those for this chat. */
export async function pushSubscriptionsFor(db: Db, chat: ChatKey): Promise<PushSubscriptionRow[]> {
  const { accountId, chatId } = chat;
  const rows = await db.all(sql`SELECT * FROM push_subscriptions
    WHERE chat_id IS NULL OR (chat_id = ${chatId} AND (account_id IS NULL OR account_id = ${accountId}))
    ORDER BY id`);
  return rows.map((r) => ({
    endpoint: String(r.endpoint),
    p256dh: String(r.p256dh),
    auth: String(r.auth),
    username: str(r.username),
    chatRef: str(r.chat_ref),
    noDownload: bool(r.no_download),
    allowedAccounts: parseJson<number[]>(r.allowed_accounts),
    allowedChatRefs: parseJson<string[]>(r.allowed_chat_refs),
  }));
}
