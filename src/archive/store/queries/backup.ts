/**
 * What the backup engine reads and writes beyond the plain ingest: progress markers, the recent messages it
 * compares with the platform, media waiting for a download and the outcome of each attempt.
 */

import { mediaTypeOf } from '../../model/content-type';
import { serviceOf } from '../../model/service-lines';
import { bool, num, parseJson, str } from '../rows';
import { list, sql } from '../sql';
import type { Db } from './common';
import { storageMediaId } from './ingest';

export interface ArchivedMessageState {
  id: number;
  text: string | null;
  editDate: Date | null;
  isPinned: boolean;
  isDeleted: boolean;
}

export interface BackupMedia {
  accountId: number;
  chatId: number;
  messageId: number;
  type: string;
  platformFileId: string | null;
  fileName: string | null;
  mimeType: string | null;
  fileSize: number | null;
  downloadAttempts: number;
}

export interface BackupMediaInput {
  accountId: number;
  chatId: number;
  messageId: number;
  type: string;
  platformFileId: string;
  fileName?: string | null;
  mimeType?: string | null;
  fileSize?: number | null;
  width?: number | null;
  height?: number | null;
  duration?: number | null;
}

const date = (value: unknown) => (value === null || value === undefined ? null : new Date(String(value)));

export async function syncPosition(db: Db, accountId: number, chatId: number): Promise<number> {
  const row = await db.get(
    sql`SELECT last_message_id FROM sync_status WHERE account_id = ${accountId} AND chat_id = ${chatId}`,
  );
  return num(row?.last_message_id) ?? 0;
}

/** The newest `limit` archived messages of a chat, newest first, deleted ones included. */
export async function recentMessages(
  db: Db,
  accountId: number,
  chatId: number,
  limit: number,
): Promise<ArchivedMessageState[]> {
  const rows = await db.all(sql`SELECT id, text, edit_date, is_pinned, is_deleted FROM messages
    WHERE account_id = ${accountId} AND chat_id = ${chatId} ORDER BY id DESC LIMIT ${limit}`);
  return rows.map((r) => ({
    id: Number(r.id),
    text: str(r.text),
    editDate: date(r.edit_date),
    isPinned: bool(r.is_pinned),
    isDeleted: bool(r.is_deleted),
  }));
}

/** Archived message ids of a chat in ascending order, for gap detection. */
export async function messageIds(db: Db, accountId: number, chatId: number): Promise<number[]> {
  const rows =
    await db.all(sql`SELECT id FROM messages WHERE account_id = ${accountId} AND chat_id = ${chatId}
    ORDER BY id`);
  return rows.map((r) => Number(r.id));
}

/** Records a message's media item; an item already known keeps its download state. */
export async function recordMedia(db: Db, m: BackupMediaInput): Promise<string> {
  const id = storageMediaId(m.chatId, m.messageId, m.type);
  await db.run(sql`INSERT INTO media (account_id, id, chat_id, message_id, type, file_name, file_size, mime_type,
      width, height, duration, platform_file_id, downloaded, download_attempts)
    VALUES (${m.accountId}, ${id}, ${m.chatId}, ${m.messageId}, ${m.type}, ${m.fileName ?? null},
      ${m.fileSize ?? null}, ${mediaTypeOf(m.mimeType)}, ${m.width ?? null}, ${m.height ?? null}, ${m.duration ?? null},
      ${m.platformFileId}, FALSE, 0)
    ON CONFLICT (account_id, chat_id, message_id) DO UPDATE SET platform_file_id = excluded.platform_file_id,
      file_name = coalesce(media.file_name, excluded.file_name), mime_type = coalesce(media.mime_type,
      excluded.mime_type), width = excluded.width, height = excluded.height, duration = excluded.duration`);
  return id;
}

/** Media not yet downloaded with attempts left, oldest first. */
export async function pendingMedia(
  db: Db,
  accountId: number,
  maxAttempts: number,
  limit: number,
): Promise<BackupMedia[]> {
  const rows = await db.all(sql`SELECT account_id, chat_id, message_id, type, platform_file_id, file_name,
      mime_type, file_size, download_attempts FROM media
    WHERE account_id = ${accountId} AND downloaded = FALSE AND skip_reason IS NULL
      AND download_attempts < ${maxAttempts}
    ORDER BY chat_id, message_id LIMIT ${limit}`);
  return rows.map((r) => ({
    accountId: Number(r.account_id),
    chatId: Number(r.chat_id),
    messageId: Number(r.message_id),
    type: String(r.type),
    platformFileId: str(r.platform_file_id),
    fileName: str(r.file_name),
    mimeType: mediaTypeOf(r.mime_type),
    fileSize: num(r.file_size),
    downloadAttempts: Number(r.download_attempts),
  }));
}

export async function mediaDownloaded(
  db: Db,
  accountId: number,
  mediaId: string,
  file: { filePath: string; fileSize: number; contentHash: string },
  at: Date,
): Promise<void> {
  await db.run(sql`UPDATE media SET downloaded = TRUE, file_path = ${file.filePath}, file_size = ${file.fileSize},
      content_hash = ${file.contentHash}, download_date = ${at}, last_attempt_at = ${at},
      download_attempts = download_attempts + 1
    WHERE account_id = ${accountId} AND id = ${mediaId}`);
}

/** Counts a failed attempt; returns the attempts made so far. */
export async function mediaAttemptFailed(
  db: Db,
  accountId: number,
  mediaId: string,
  at: Date,
): Promise<number> {
  await db.run(sql`UPDATE media SET download_attempts = download_attempts + 1, last_attempt_at = ${at}
    WHERE account_id = ${accountId} AND id = ${mediaId}`);
  const row = await db.get(
    sql`SELECT download_attempts FROM media WHERE account_id = ${accountId} AND id = ${mediaId}`,
  );
  return Number(row?.download_attempts ?? 0);
}

/** How many media items of an account have used every attempt without a download. */
export async function exhaustedMediaCount(db: Db, accountId: number, maxAttempts: number): Promise<number> {
  const row = await db.get(sql`SELECT count(*) AS n FROM media WHERE account_id = ${accountId}
    AND downloaded = FALSE AND skip_reason IS NULL AND download_attempts >= ${maxAttempts}`);
  return Number(row?.n ?? 0);
}

/** The newest avatar photo id recorded for a chat (null when removed or never seen). */
export async function currentAvatar(
  db: Db,
  accountId: number,
  chatId: number,
): Promise<string | null | undefined> {
  const row = await db.get(sql`SELECT photo_id FROM avatar_history
    WHERE account_id = ${accountId} AND chat_id = ${chatId} ORDER BY seen_at DESC, id DESC LIMIT 1`);
  return row === undefined ? undefined : str(row.photo_id);
}

/** Accounts already in the archive, by the platform user behind them. */
export async function accountByPlatformUser(db: Db, platformUserId: number): Promise<number | null> {
  const row = await db.get(sql`SELECT id FROM accounts WHERE platform_user_id = ${platformUserId}`);
  return row ? Number(row.id) : null;
}

/**
 * The chats of an account's basic groups and private chats that hold these message ids (the platform names
 * no chat when such messages are deleted).
 */
export async function chatsOfMessages(
  db: Db,
  accountId: number,
  ids: number[],
): Promise<Map<number, number[]>> {
  const byChat = new Map<number, number[]>();
  if (ids.length === 0) return byChat;
  const rows = await db.all(sql`SELECT chat_id, id FROM messages WHERE account_id = ${accountId}
    AND chat_id > ${-1_000_000_000_000} AND id IN ${list(ids)}`);
  for (const row of rows) {
    const chat = Number(row.chat_id);
    byChat.set(chat, [...(byChat.get(chat) ?? []), Number(row.id)]);
  }
  return byChat;
}

/** Retypes a chat's archived videos that the platform reports as round videos; returns rows changed. */
export async function retypeRoundVideos(
  db: Db,
  accountId: number,
  chatId: number,
  messageIds: number[],
): Promise<number> {
  if (messageIds.length === 0) return 0;
  // The storage id ends with the type, so it changes too (open viewer tabs then miss the old key); a row a
  // transcript already refers to keeps its id and type.
  const rows = await db.all(sql`UPDATE media SET type = 'video_note',
      id = ${String(chatId)} || '_' || CAST(message_id AS TEXT) || '_video_note'
    WHERE account_id = ${accountId} AND chat_id = ${chatId} AND type = 'video'
      AND message_id IN ${list(messageIds)}
      AND NOT EXISTS (SELECT 1 FROM media_transcripts t WHERE t.account_id = media.account_id
        AND t.media_id = media.id)
    RETURNING id`);
  return rows.length;
}

/** Archived videos of a chat that could be round videos (for a dry run of the reclassification). */
export async function videoMessageIds(db: Db, accountId: number, chatId: number): Promise<number[]> {
  const rows =
    await db.all(sql`SELECT message_id FROM media WHERE account_id = ${accountId} AND chat_id = ${chatId}
    AND type = 'video' ORDER BY message_id`);
  return rows.map((r) => Number(r.message_id));
}

/** The chats an account has archived, for commands that go over every chat. */
export async function archivedChatIds(db: Db, accountId: number): Promise<number[]> {
  const rows = await db.all(sql`SELECT id FROM chats WHERE account_id = ${accountId} ORDER BY id`);
  return rows.map((r) => Number(r.id));
}

/** Every archived account with the platform user behind it. */
export async function archivedAccounts(db: Db): Promise<{ id: number; platformUserId: number | null }[]> {
  const rows = await db.all(sql`SELECT id, platform_user_id FROM accounts ORDER BY id`);
  return rows.map((r) => ({ id: Number(r.id), platformUserId: num(r.platform_user_id) }));
}

/** Moves a chat's progress marker back to the start (backfill-topics). */
export async function resetSyncPosition(db: Db, accountId: number, chatId: number): Promise<void> {
  await db.run(
    sql`UPDATE sync_status SET last_message_id = 0 WHERE account_id = ${accountId} AND chat_id = ${chatId}`,
  );
}

/** An archived message as `restore_chat` re-sends it: its text and its downloaded file, if any. */
export interface RestorableMessage {
  id: number;
  date: Date;
  text: string | null;
  /** A service message (join, pin …): never re-sent. */
  isService: boolean;
  media: { type: string; filePath: string | null; fileName: string | null; downloaded: boolean } | null;
}

/** A chat's archived messages sent in [after, before), oldest first, at most `limit`. */
export async function restorableMessages(
  db: Db,
  accountId: number,
  chatId: number,
  window: { after?: Date; before?: Date; limit?: number },
): Promise<RestorableMessage[]> {
  const after = window.after ? sql`AND m.date >= ${window.after}` : sql``;
  const before = window.before ? sql`AND m.date < ${window.before}` : sql``;
  const limit = window.limit ? sql`LIMIT ${window.limit}` : sql``;
  const rows = await db.all(sql`SELECT m.id, m.date, m.text, m.raw_data, md.type AS media_type,
      md.file_path, md.file_name, md.downloaded
    FROM messages m LEFT JOIN media md ON md.account_id = m.account_id AND md.chat_id = m.chat_id
      AND md.message_id = m.id
    WHERE m.account_id = ${accountId} AND m.chat_id = ${chatId} ${after} ${before}
    ORDER BY m.date, m.id ${limit}`);
  return rows.map((r) => {
    // A service entry of any source: an action (the platform, the JSON export) or the HTML export's words.
    const raw = parseJson<Record<string, unknown>>(r.raw_data);
    return {
      id: Number(r.id),
      date: new Date(String(r.date instanceof Date ? r.date.toISOString() : r.date)),
      text: str(r.text),
      isService: serviceOf(raw, null) !== null,
      media:
        r.media_type === null || r.media_type === undefined
          ? null
          : {
              type: String(r.media_type),
              filePath: str(r.file_path),
              fileName: str(r.file_name),
              downloaded: bool(r.downloaded),
            },
    };
  });
}

/** The live (not removed) per-emoji reaction counts of these messages, by message id. */
export async function liveReactions(
  db: Db,
  accountId: number,
  chatId: number,
  messageIds: number[],
): Promise<Map<number, { emoji: string; count: number }[]>> {
  const byMessage = new Map<number, { emoji: string; count: number }[]>();
  if (messageIds.length === 0) return byMessage;
  const rows = await db.all(sql`SELECT message_id, emoji, count FROM reactions
    WHERE account_id = ${accountId} AND chat_id = ${chatId} AND user_id IS NULL AND removed_at IS NULL
      AND message_id IN ${list(messageIds)}`);
  for (const r of rows) {
    const id = Number(r.message_id);
    byMessage.set(id, [...(byMessage.get(id) ?? []), { emoji: String(r.emoji), count: Number(r.count) }]);
  }
  return byMessage;
}

/** Downloaded media of an account with the file each should have, for the verification after a run. */
export async function downloadedFiles(
  db: Db,
  accountId: number,
): Promise<{ id: string; filePath: string | null; fileSize: number | null }[]> {
  const rows = await db.all(sql`SELECT id, file_path, file_size FROM media
    WHERE account_id = ${accountId} AND downloaded = TRUE ORDER BY id`);
  return rows.map((r) => ({ id: String(r.id), filePath: str(r.file_path), fileSize: num(r.file_size) }));
}

/** Media whose file went missing wait for a download again (attempts start over). */
export async function markFilesMissing(db: Db, accountId: number, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.run(sql`UPDATE media SET downloaded = FALSE, download_attempts = 0
    WHERE account_id = ${accountId} AND id IN ${list(ids)}`);
}
