import { isoRequired, num, str } from '../rows';
import { join, type Sql, sql } from '../sql';
import type { AuditLogEntry, AuditQuery, NewAuditEntry, SettingValue } from '../types';
import type { Db } from './common';

export async function getMetadata(db: Db, key: string): Promise<string | null> {
  const row = await db.get(sql`SELECT value FROM metadata WHERE key = ${key}`);
  return str(row?.value);
}

export async function setMetadata(db: Db, key: string, value: string): Promise<void> {
  await db.run(sql`INSERT INTO metadata (key, value) VALUES (${key}, ${value})
    ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
}

export async function getSettings(db: Db): Promise<Record<string, string>> {
  const rows = await db.all(sql`SELECT key, value FROM app_settings ORDER BY key`);
  return Object.fromEntries(rows.map((r) => [String(r.key), String(r.value)]));
}

export async function getSetting(db: Db, key: string): Promise<string | null> {
  return str((await db.get(sql`SELECT value FROM app_settings WHERE key = ${key}`))?.value);
}

export async function setSetting(
  db: Db,
  key: string,
  value: string,
  now = new Date(),
): Promise<SettingValue> {
  await db.run(sql`INSERT INTO app_settings (key, value, updated_at) VALUES (${key}, ${value}, ${now})
    ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`);
  return { key, value };
}

export async function appendAudit(db: Db, e: NewAuditEntry): Promise<void> {
  await db.run(sql`INSERT INTO viewer_audit_log
      (username, role, action, endpoint, chat_id, ip_address, user_agent, created_at)
    VALUES (${e.username}, ${e.role}, ${e.action}, ${e.endpoint}, ${e.chatId ?? null}, ${e.ipAddress ?? null},
            ${e.userAgent ?? null}, ${e.now ?? new Date()})`);
}

export async function listAudit(db: Db, q: AuditQuery): Promise<AuditLogEntry[]> {
  const where: Sql[] = [sql`TRUE`];
  if (q.username !== undefined) where.push(sql`username = ${q.username}`);
  // A prefix, compared by characters on both backends (no LIKE: its case rules differ between them).
  if (q.action !== undefined) where.push(sql`substr(action, 1, ${[...q.action].length}) = ${q.action}`);
  const rows = await db.all(sql`SELECT * FROM viewer_audit_log WHERE ${join(where, ' AND ')}
    ORDER BY id DESC LIMIT ${q.limit} OFFSET ${q.offset}`);
  return rows.map((r) => ({
    id: Number(r.id),
    username: String(r.username),
    role: str(r.role),
    action: String(r.action),
    endpoint: str(r.endpoint),
    chat_id: num(r.chat_id),
    ip_address: str(r.ip_address),
    user_agent: str(r.user_agent),
    created_at: isoRequired(r.created_at),
  }));
}
