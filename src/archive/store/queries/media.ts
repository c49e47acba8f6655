import { mediaTypeOf } from '../../model/content-type';
import { FILELESS_TYPES } from '../../model/media-kinds';
import type { Row } from '../driver';
import { bool, iso, isoRequired, num, str } from '../rows';
import { join, list, type Sql, sql } from '../sql';
import type { ChatKey, GalleryPage, GalleryQuery, StoredChatAvatar, StoredMediaItem } from '../types';
import type { Db } from './common';

const ITEM_COLUMNS = sql`md.message_id, md.type, md.file_path, md.file_name, md.file_size, md.mime_type,
  md.width, md.height, md.duration, md.downloaded, m.date, m.text, m.is_deleted, m.deleted_at`;

const ITEM_JOIN = sql`FROM media md
  JOIN messages m ON m.account_id = md.account_id AND m.chat_id = md.chat_id AND m.id = md.message_id`;

const inChatMedia = (chat: ChatKey) => sql`md.account_id = ${chat.accountId} AND md.chat_id = ${chat.chatId}`;

function toItem(r: Row): StoredMediaItem {
  const messageId = Number(r.message_id);
  const type = String(r.type);
  return {
    key: `${messageId}_${type}`,
    messageId,
    type,
    filePath: str(r.file_path),
    fileName: str(r.file_name),
    fileSize: num(r.file_size),
    mimeType: mediaTypeOf(r.mime_type),
    width: num(r.width),
    height: num(r.height),
    duration: num(r.duration),
    downloaded: bool(r.downloaded),
    date: isoRequired(r.date),
    text: str(r.text),
    isDeleted: bool(r.is_deleted),
    deletedAt: iso(r.deleted_at),
  };
}

export async function getMediaItem(
  db: Db,
  chat: ChatKey,
  messageId: number,
  type: string,
): Promise<StoredMediaItem | null> {
  const row = await db.get(sql`SELECT ${ITEM_COLUMNS} ${ITEM_JOIN}
    WHERE ${inChatMedia(chat)} AND md.message_id = ${messageId} AND md.type = ${type}`);
  return row ? toItem(row) : null;
}

export async function listGallery(db: Db, chat: ChatKey, q: GalleryQuery): Promise<GalleryPage> {
  const where: Sql[] = [inChatMedia(chat), sql`md.type NOT IN ${list([...FILELESS_TYPES])}`];
  if (q.types) {
    if (q.types.length === 0) return { items: [], hasMore: false };
    where.push(sql`md.type IN ${list(q.types)}`);
  }
  const ascending = q.afterMessageId !== undefined;
  if (q.beforeMessageId !== undefined) where.push(sql`md.message_id < ${q.beforeMessageId}`);
  if (q.afterMessageId !== undefined) where.push(sql`md.message_id > ${q.afterMessageId}`);
  const rows = await db.all(sql`SELECT ${ITEM_COLUMNS} ${ITEM_JOIN} WHERE ${join(where, ' AND ')}
    ORDER BY md.message_id ${ascending ? sql`ASC` : sql`DESC`} LIMIT ${q.limit + 1}`);
  const hasMore = rows.length > q.limit;
  const page = rows.slice(0, q.limit).map(toItem);
  if (ascending) page.reverse();
  return { items: page, hasMore };
}

export async function countMediaByType(db: Db, chat: ChatKey): Promise<Record<string, number>> {
  const rows = await db.all(sql`SELECT md.type, count(*) AS n FROM media md
    WHERE ${inChatMedia(chat)} AND md.type NOT IN ${list([...FILELESS_TYPES])}
    GROUP BY md.type ORDER BY md.type`);
  return Object.fromEntries(rows.map((r) => [String(r.type), Number(r.n)]));
}

export async function findChatAvatar(
  db: Db,
  chat: ChatKey,
  photoId?: string,
): Promise<StoredChatAvatar | null> {
  const which = photoId === undefined ? sql`` : sql`AND photo_id = ${photoId}`;
  const row = await db.get(sql`SELECT photo_id, seen_at FROM avatar_history
    WHERE account_id = ${chat.accountId} AND chat_id = ${chat.chatId} ${which}
    ORDER BY seen_at DESC, id DESC LIMIT 1`);
  return row ? { photo_id: str(row.photo_id), seen_at: isoRequired(row.seen_at) } : null;
}

export async function findMessageSender(
  db: Db,
  chat: ChatKey,
  messageId: number,
): Promise<number | null | undefined> {
  const row = await db.get(sql`SELECT sender_id FROM messages
    WHERE account_id = ${chat.accountId} AND chat_id = ${chat.chatId} AND id = ${messageId}`);
  return row ? num(row.sender_id) : undefined;
}

/** Which of these media paths (relative to the media folder) a media or avatar row still names. */
export async function filePathsInUse(db: Db, paths: readonly string[]): Promise<Set<string>> {
  const used = new Set<string>();
  for (let at = 0; at < paths.length; at += 500) {
    const some = list(paths.slice(at, at + 500));
    const rows = await db.all(sql`SELECT file_path FROM media WHERE file_path IN ${some}
      UNION SELECT file_path FROM avatar_history WHERE file_path IN ${some}`);
    for (const row of rows) used.add(String(row.file_path));
  }
  return used;
}
