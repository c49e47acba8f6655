/**
 * The maintenance scripts' reads and writes: album grouping, media deduplication and sizes, grouped-id
 * normalisation, legacy avatar files and media path rewrites. Every write takes the caller's
 * transaction, so a script's pass lands whole or not at all.
 */
import type { Driver } from '../driver';
import { num, parseJson, str } from '../rows';
import { json, raw, sql } from '../sql';
import type { MaintenanceWriter, MediaFileRow, MediaMessageRow } from '../tools';
import type { Db } from './common';

export async function listAlbumCandidates(db: Db): Promise<MediaMessageRow[]> {
  const rows = await db.all(sql`SELECT m.account_id, m.chat_id, m.id, m.sender_id, m.date, m.raw_data
    FROM messages m JOIN media md ON md.account_id = m.account_id AND md.chat_id = m.chat_id
      AND md.message_id = m.id
   WHERE md.type IN ('photo', 'video') AND m.is_deleted = FALSE
   ORDER BY m.account_id, m.chat_id, m.date, m.id`);
  return rows.map((r) => ({
    accountId: Number(r.account_id),
    chatId: Number(r.chat_id),
    id: Number(r.id),
    senderId: num(r.sender_id),
    date: r.date instanceof Date ? r.date : new Date(String(r.date)),
    raw: parseJson<Record<string, unknown>>(r.raw_data),
  }));
}

export async function listMessagesWithGroupedId(db: Db): Promise<MediaMessageRow[]> {
  const where = db.capabilities.jsonScalarField(raw('raw_data'), 'grouped_id');
  const rows = await db.all(sql`SELECT account_id, chat_id, id, sender_id, date, raw_data FROM messages
    WHERE ${where} ORDER BY account_id, chat_id, id`);
  return rows.map((r) => ({
    accountId: Number(r.account_id),
    chatId: Number(r.chat_id),
    id: Number(r.id),
    senderId: num(r.sender_id),
    date: r.date instanceof Date ? r.date : new Date(String(r.date)),
    raw: parseJson<Record<string, unknown>>(r.raw_data),
  }));
}

export async function listMediaFiles(db: Db): Promise<MediaFileRow[]> {
  const rows =
    await db.all(sql`SELECT account_id, id, chat_id, message_id, type, file_path, file_size, content_hash,
      downloaded FROM media WHERE file_path IS NOT NULL ORDER BY account_id, chat_id, message_id`);
  return rows.map((r) => ({
    accountId: Number(r.account_id),
    id: String(r.id),
    chatId: Number(r.chat_id),
    messageId: Number(r.message_id),
    type: String(r.type),
    filePath: str(r.file_path),
    fileSize: num(r.file_size),
    contentHash: str(r.content_hash),
    downloaded: r.downloaded === true || Number(r.downloaded) === 1,
  }));
}

export async function listAvatarFiles(db: Db): Promise<string[]> {
  const rows = await db.all(sql`SELECT DISTINCT file_path FROM avatar_history WHERE file_path IS NOT NULL`);
  return rows.map((r) => String(r.file_path));
}

function writer(tx: Db): MaintenanceWriter {
  return {
    setRawData: async (m, raw) => {
      await tx.run(sql`UPDATE messages SET raw_data = ${json(raw)}
        WHERE account_id = ${m.accountId} AND chat_id = ${m.chatId} AND id = ${m.id}`);
    },
    setMediaFile: async (m, file) => {
      await tx.run(sql`UPDATE media SET file_path = ${file.filePath},
          file_size = coalesce(${file.fileSize ?? null}, file_size),
          content_hash = coalesce(${file.contentHash ?? null}, content_hash)
        WHERE account_id = ${m.accountId} AND id = ${m.id}`);
    },
    setAvatarPath: async (from, to) => {
      await tx.run(sql`UPDATE avatar_history SET file_path = ${to} WHERE file_path = ${from}`);
    },
  };
}

export function maintenanceTransaction<T>(
  driver: Driver,
  fn: (w: MaintenanceWriter) => Promise<T>,
): Promise<T> {
  return driver.transaction((tx) => fn(writer(tx)));
}
