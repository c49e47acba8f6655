import { sql } from '../sql';
import type { ChatKey } from '../types';
import type { Db } from './common';

/** Stored payloads of live events sent by reference are kept this long (readers fetch them at once). */
const KEEP_MS = 3_600_000;

/** Keeps a large event payload; returns its id for the notification to carry. */
export async function saveLiveEvent(db: Db, payload: string, now = new Date()): Promise<number> {
  await db.run(sql`DELETE FROM live_events WHERE created_at < ${new Date(now.getTime() - KEEP_MS)}`);
  const row = await db.get(sql`INSERT INTO live_events (payload, created_at) VALUES (${payload}, ${now})
    RETURNING id`);
  return Number(row?.id);
}

export async function readLiveEvent(db: Db, id: number): Promise<string | null> {
  const row = await db.get(sql`SELECT payload FROM live_events WHERE id = ${id}`);
  return row ? String(row.payload) : null;
}

/** Records a webhook delivery id; false when it was already received (a replay). */
export async function recordWebhookDelivery(db: Db, id: string, now = new Date()): Promise<boolean> {
  const { changes } = await db.run(sql`INSERT INTO webhook_deliveries (id, received_at) VALUES (${id}, ${now})
    ON CONFLICT (id) DO NOTHING`);
  return changes > 0;
}

/** The archived copies of a platform chat id (one per account holding it), to address live events. */
export async function chatKeysOf(db: Db, chatId: number, accountId: number | null): Promise<ChatKey[]> {
  const rows = await db.all(sql`SELECT account_id, id, ref FROM chats WHERE id = ${chatId}
    ${accountId !== null ? sql`AND account_id = ${accountId}` : sql``} ORDER BY account_id`);
  return rows.map((r) => ({ accountId: Number(r.account_id), chatId: Number(r.id), ref: String(r.ref) }));
}
