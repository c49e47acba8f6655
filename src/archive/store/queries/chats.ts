import { attachmentOf } from '../../model/attachments';
import { mediaInWords } from '../../model/media-kinds';
import { asPoll, pollHeadline } from '../../model/polls';
import { containsPattern } from '../../model/search';
import { serviceOf } from '../../model/service-lines';
import type { Row } from '../driver';
import {
  accountLabel,
  bool,
  iso,
  isoRequired,
  num,
  parseJson,
  str,
  toAccount,
  toAdminChat,
  toChat,
} from '../rows';
import { join, list, raw, type Sql, sql } from '../sql';
import type {
  Account,
  AdminChat,
  ChatKey,
  ChatListQuery,
  ChatPage,
  ChatStats,
  Folder,
  FoundChat,
  StoredChat,
  StoredChatAvatar,
  Topic,
  Visibility,
} from '../types';
import { type Db, MEDIA_JOIN, possibleAccountIds, visibleChats } from './common';

type LastMessage = NonNullable<StoredChat['last_message']>;

const REF = /^[A-Za-z0-9_-]{22}$/;

export async function listAccounts(db: Db, vis: Visibility): Promise<Account[]> {
  const only = vis.accounts ? sql`WHERE id IN ${list(possibleAccountIds(vis.accounts))}` : sql``;
  const rows = await db.all(sql`SELECT id, label FROM accounts ${only} ORDER BY id`);
  return rows.map(toAccount);
}

/** The visible accounts holding each of these platform chat ids. */
async function accountsOf(db: Db, vis: Visibility, chatIds: number[]): Promise<Map<number, Account[]>> {
  const byChat = new Map<number, Account[]>();
  if (chatIds.length === 0) return byChat;
  const rows = await db.all(sql`
    SELECT c.id AS chat_id, a.id, a.label FROM chats c JOIN accounts a ON a.id = c.account_id
     WHERE c.id IN ${list([...new Set(chatIds)])} AND ${visibleChats(vis)}
     ORDER BY c.id, a.id`);
  for (const row of rows) {
    const id = Number(row.id);
    const entry = byChat.get(Number(row.chat_id)) ?? [];
    entry.push({ id, label: accountLabel(id, row.label) });
    byChat.set(Number(row.chat_id), entry);
  }
  return byChat;
}

async function withAccounts(db: Db, vis: Visibility, rows: Row[]) {
  const accounts = await accountsOf(
    db,
    vis,
    rows.map((r) => Number(r.id)),
  );
  const last = await lastMessagesOf(db, rows);
  return rows.map((row) => ({
    ...toChat(row, accounts.get(Number(row.id)) ?? []),
    last_message: last.get(String(row.ref)) ?? null,
  }));
}

const PREVIEW_CHARS = 200;

/**
 * The newest message of each chat that was not deleted, in a few words for the chat list: its text, else
 * its poll's question, its media in words or its service line (each found by the chat's date index).
 */
async function lastMessagesOf(db: Db, chats: Row[]): Promise<Map<string, LastMessage>> {
  if (chats.length === 0) return new Map();
  const rows = await db.all(sql`
    SELECT c.ref AS chat_ref, m.id, m.sender_name, m.is_outgoing, m.text, m.raw_data, m.poll, md.type AS media_type
      FROM chats c
      JOIN messages m ON m.pk = (SELECT n.pk FROM messages n
        WHERE n.account_id = c.account_id AND n.chat_id = c.id AND n.is_deleted = FALSE
        ORDER BY n.date DESC, n.id DESC LIMIT 1)
      ${MEDIA_JOIN}
     WHERE c.ref IN ${list(chats.map((c) => String(c.ref)))}`);
  const out = new Map<string, LastMessage>();
  for (const r of rows) {
    const raw = parseJson<Record<string, unknown>>(r.raw_data);
    const service = serviceOf(raw, str(r.sender_name));
    const poll = asPoll(parseJson(r.poll));
    const mediaType = str(r.media_type);
    const words =
      str(r.text)?.trim() ||
      (poll && `📊 ${pollHeadline(poll)}`) ||
      service?.text ||
      (mediaType && mediaInWords(mediaType)) ||
      attachmentOf(raw)?.text ||
      'Message';
    const line = words.replace(/\s+/g, ' ');
    out.set(String(r.chat_ref), {
      id: Number(r.id),
      sender_name: service ? null : str(r.sender_name),
      is_outgoing: bool(r.is_outgoing),
      preview: line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line,
    });
  }
  return out;
}

function chatFilters(db: Db, vis: Visibility, query: Omit<ChatListQuery, 'limit' | 'offset'>): Sql {
  const where: Sql[] = [visibleChats(vis)];
  if (query.search) {
    const pattern = containsPattern(query.search);
    const fields = ['c.title', 'c.first_name', 'c.last_name', 'c.username'].map(
      (f) => sql`${db.capabilities.casefold(raw(f))} LIKE ${pattern} ESCAPE '\\'`,
    );
    const fullName = db.capabilities.casefold(
      sql`coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, '')`,
    );
    where.push(sql`(${join([...fields, sql`${fullName} LIKE ${pattern} ESCAPE '\\'`], ' OR ')})`);
  }
  if (query.archived !== undefined) where.push(sql`c.is_archived = ${query.archived}`);
  if (query.folderId !== undefined) {
    where.push(sql`EXISTS (SELECT 1 FROM chat_folder_members f
      WHERE f.account_id = c.account_id AND f.chat_id = c.id AND f.folder_id = ${query.folderId})`);
  }
  return join(where, ' AND ');
}

export async function listChats(db: Db, vis: Visibility, query: ChatListQuery): Promise<ChatPage> {
  const where = chatFilters(db, vis, query);
  const rows = await db.all(sql`
    SELECT c.* FROM chats c WHERE ${where}
     ORDER BY c.last_message_date DESC NULLS LAST, c.account_id, c.id
     LIMIT ${query.limit} OFFSET ${query.offset}`);
  const total = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM chats c WHERE ${where}`);
  return { chats: await withAccounts(db, vis, rows), total: Number(total?.n ?? 0) };
}

export async function findChat(db: Db, vis: Visibility, ref: string): Promise<FoundChat | null> {
  if (!REF.test(ref)) return null;
  const row = await db.get(sql`SELECT c.* FROM chats c WHERE c.ref = ${ref} AND ${visibleChats(vis)}`);
  if (!row) return null;
  const [chat] = await withAccounts(db, vis, [row]);
  if (!chat) return null;
  return { key: { accountId: Number(row.account_id), chatId: Number(row.id), ref }, chat };
}

export async function listFolders(db: Db, vis: Visibility): Promise<Folder[]> {
  const rows = await db.all(sql`
    SELECT f.id, f.account_id, f.title, f.emoticon, f.sort_order, count(*) AS chat_count
      FROM chat_folders f
      JOIN chat_folder_members fm ON fm.account_id = f.account_id AND fm.folder_id = f.id
      JOIN chats c ON c.account_id = fm.account_id AND c.id = fm.chat_id
     WHERE ${visibleChats(vis)}
     GROUP BY f.account_id, f.id, f.title, f.emoticon, f.sort_order
     ORDER BY f.account_id, f.sort_order, f.id`);
  return rows.map((r) => ({
    id: Number(r.id),
    account_id: Number(r.account_id),
    title: String(r.title),
    emoticon: str(r.emoticon),
    sort_order: Number(r.sort_order),
    chat_count: Number(r.chat_count),
  }));
}

export async function countArchivedChats(db: Db, vis: Visibility): Promise<number> {
  const row = await db.get<{ n: number }>(
    sql`SELECT count(*) AS n FROM chats c WHERE c.is_archived = TRUE AND ${visibleChats(vis)}`,
  );
  return Number(row?.n ?? 0);
}

export async function listAdminChats(db: Db): Promise<AdminChat[]> {
  const rows = await db.all(sql`
    SELECT account_id, id, ref, type, title, username, first_name, last_name FROM chats
     ORDER BY account_id, last_message_date DESC NULLS LAST, id`);
  return rows.map(toAdminChat);
}

export async function existingChatRefs(db: Db, refs: string[]): Promise<string[]> {
  const valid = refs.filter((r) => REF.test(r));
  if (valid.length === 0) return [];
  const rows = await db.all(sql`SELECT ref FROM chats WHERE ref IN ${list(valid)}`);
  const found = new Set(rows.map((r) => String(r.ref)));
  return valid.filter((r) => found.has(r));
}

export async function listTopics(db: Db, chat: ChatKey): Promise<Topic[]> {
  // Counted as the message routes filter a topic (`reply_to_top_id`), so both agree.
  const rows = await db.all(sql`
    SELECT t.*, coalesce(s.n, 0) AS message_count, s.last_date AS last_message_date FROM forum_topics t
      JOIN chats c ON c.account_id = t.account_id AND c.id = t.chat_id AND c.is_forum = TRUE
      LEFT JOIN (SELECT reply_to_top_id AS topic_id, count(*) AS n, max(date) AS last_date FROM messages
                  WHERE account_id = ${chat.accountId} AND chat_id = ${chat.chatId} AND reply_to_top_id IS NOT NULL
                  GROUP BY reply_to_top_id) s ON s.topic_id = t.id
     WHERE t.account_id = ${chat.accountId} AND t.chat_id = ${chat.chatId}
     ORDER BY t.is_pinned DESC, t.date DESC NULLS LAST, t.id DESC`);
  return rows.map((r) => ({
    id: Number(r.id),
    title: String(r.title),
    icon_color: num(r.icon_color),
    icon_emoji: str(r.icon_emoji),
    is_closed: bool(r.is_closed),
    is_pinned: bool(r.is_pinned),
    is_hidden: bool(r.is_hidden),
    date: iso(r.date),
    message_count: Number(r.message_count),
    last_message_date: iso(r.last_message_date),
  }));
}

export async function getChatStats(db: Db, chat: ChatKey): Promise<ChatStats> {
  const messages = await db.get(sql`
    SELECT count(*) AS n, min(date) AS first_date, max(date) AS last_date
      FROM messages WHERE account_id = ${chat.accountId} AND chat_id = ${chat.chatId}`);
  const media = await db.get(sql`
    SELECT count(*) AS n, coalesce(sum(file_size), 0) AS bytes
      FROM media WHERE account_id = ${chat.accountId} AND chat_id = ${chat.chatId} AND downloaded = TRUE`);
  const bytes = Number(media?.bytes ?? 0);
  return {
    chat_id: chat.chatId,
    messages: Number(messages?.n ?? 0),
    media_files: Number(media?.n ?? 0),
    total_size_bytes: bytes,
    total_size_mb: Math.round((bytes / 1048576) * 100) / 100,
    first_message_date: iso(messages?.first_date),
    last_message_date: iso(messages?.last_date),
  };
}

export async function listChatAvatars(db: Db, chat: ChatKey): Promise<StoredChatAvatar[]> {
  const rows = await db.all(sql`
    SELECT photo_id, seen_at FROM avatar_history
     WHERE account_id = ${chat.accountId} AND chat_id = ${chat.chatId}
     ORDER BY seen_at DESC, id DESC`);
  return rows.map((r) => ({ photo_id: str(r.photo_id), seen_at: isoRequired(r.seen_at) }));
}
