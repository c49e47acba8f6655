/**
 * What `archive-cli export`, `list-chats` and `stats` read: every chat, and messages, versions and
 * transcripts page by page in archive order (oldest first), so an export of any size streams.
 */
import { asPoll, type Poll } from '../../model/polls';
import { bool, iso, num, parseJson, str } from '../rows';
import { list, raw, type Sql, sql } from '../sql';
import type { CliChatRow, ExportChat, ExportFilter, ExportMessage, ExportVersion } from '../tools';
import type { Db } from './common';

const SLOTS_PER_SECOND = 2 ** 21;

function window(f: ExportFilter, alias: string): Sql {
  const parts: Sql[] = [sql`TRUE`];
  const a = (col: string) => raw(`${alias}.${col}`);
  if (f.chatId !== null) parts.push(sql`${a('chat_id')} = ${f.chatId}`);
  if (f.start) parts.push(sql`${a('date')} >= ${f.start}`);
  if (f.end) parts.push(sql`${a('date')} < ${f.end}`);
  return parts.reduce((acc, p) => sql`${acc} AND ${p}`);
}

/** The same window as a range of the messages' order key, so the scan walks the primary key. */
function pkRange(f: ExportFilter): Sql {
  let range = sql``;
  if (f.start) range = sql`${range} AND m.pk >= ${Math.floor(f.start.getTime() / 1000) * SLOTS_PER_SECOND}`;
  if (f.end) range = sql`${range} AND m.pk < ${Math.ceil(f.end.getTime() / 1000) * SLOTS_PER_SECOND}`;
  return range;
}

export async function listExportChats(db: Db): Promise<ExportChat[]> {
  const rows =
    await db.all(sql`SELECT account_id, id, type, title, username, first_name, last_name, description,
      participants_count, is_forum, is_archived, created_at, updated_at
    FROM chats ORDER BY account_id, id`);
  return rows.map((r) => ({
    id: Number(r.id),
    account_id: Number(r.account_id),
    type: String(r.type),
    title: str(r.title),
    username: str(r.username),
    first_name: str(r.first_name),
    last_name: str(r.last_name),
    description: str(r.description),
    participants_count: num(r.participants_count),
    is_forum: bool(r.is_forum) ? 1 : 0,
    is_archived: bool(r.is_archived) ? 1 : 0,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  }));
}

export async function countExport(db: Db, f: ExportFilter) {
  const messages = await db.get(sql`SELECT count(*) AS n FROM messages m WHERE ${window(f, 'm')}`);
  const versions = await db.get(sql`SELECT count(*) AS n FROM message_versions v WHERE ${window(f, 'v')}`);
  const transcripts = await db.get(sql`SELECT count(*) AS n FROM media_transcripts t
      JOIN media md ON md.account_id = t.account_id AND md.id = t.media_id
      JOIN messages m ON m.account_id = md.account_id AND m.chat_id = md.chat_id AND m.id = md.message_id
     WHERE ${window(f, 'm')}`);
  const chats = await db.get(sql`SELECT count(*) AS n FROM chats`);
  return {
    total_messages: Number(messages?.n ?? 0),
    total_chats: Number(chats?.n ?? 0),
    total_message_versions: Number(versions?.n ?? 0),
    total_transcripts: Number(transcripts?.n ?? 0),
  };
}

/** One page of messages after the order key `after` (null: from the start); returns the last key too. */
/**
 * The raw data as exported: the export keeps the upstream's message fields, where a poll has no column of
 * its own, so a poll travels in the raw data under `poll` (as the desktop export writes it there).
 */
function withPoll(raw: Record<string, unknown> | null, poll: Poll | null): Record<string, unknown> | null {
  return poll === null ? raw : { ...(raw ?? {}), poll };
}

export async function exportMessagePage(
  db: Db,
  f: ExportFilter,
  after: number | null,
  limit: number,
): Promise<{ messages: ExportMessage[]; last: number | null }> {
  const rows = await db.all(sql`SELECT m.pk, m.id, m.chat_id, m.sender_id, m.sender_name, m.date, m.text,
      m.reply_to_msg_id, m.reply_to_top_id, m.reply_to_text, m.forward_from_id, m.edit_date, m.raw_data,
      m.poll, m.created_at, m.is_outgoing, m.is_pinned, m.is_deleted, m.deleted_at, m.account_id
    FROM messages m
   WHERE ${window(f, 'm')} ${pkRange(f)} ${after === null ? sql`` : sql`AND m.pk > ${after}`}
   ORDER BY m.pk LIMIT ${limit}`);
  const messages: ExportMessage[] = rows.map((r) => ({
    id: Number(r.id),
    chat_id: Number(r.chat_id),
    sender_id: num(r.sender_id),
    sender_name: str(r.sender_name),
    date: iso(r.date),
    text: str(r.text),
    reply_to_msg_id: num(r.reply_to_msg_id),
    reply_to_top_id: num(r.reply_to_top_id),
    reply_to_text: str(r.reply_to_text),
    forward_from_id: num(r.forward_from_id),
    edit_date: iso(r.edit_date),
    raw_data: withPoll(parseJson<Record<string, unknown>>(r.raw_data), asPoll(parseJson(r.poll))),
    created_at: iso(r.created_at),
    is_outgoing: bool(r.is_outgoing) ? 1 : 0,
    is_pinned: bool(r.is_pinned) ? 1 : 0,
    is_deleted: bool(r.is_deleted) ? 1 : 0,
    deleted_at: iso(r.deleted_at),
    account_id: Number(r.account_id),
  }));
  if (rows.length > 0) await attachTranscripts(db, messages);
  return { messages, last: rows.length > 0 ? Number(rows[rows.length - 1]?.pk) : null };
}

async function attachTranscripts(db: Db, messages: ExportMessage[]): Promise<void> {
  const byAccount = new Map<number, ExportMessage[]>();
  for (const m of messages) byAccount.set(m.account_id, [...(byAccount.get(m.account_id) ?? []), m]);
  for (const [accountId, group] of byAccount) {
    const mediaIds = await db.all(sql`SELECT id, chat_id, message_id FROM media
      WHERE account_id = ${accountId} AND message_id IN ${list([...new Set(group.map((m) => m.id))])}`);
    if (mediaIds.length === 0) continue;
    const rows =
      await db.all(sql`SELECT t.id, t.media_id, t.status, t.text, t.language, t.source, t.engine_name,
        t.engine_version, t.confidence, t.duration_s, t.requested_at, t.completed_at, md.chat_id, md.message_id
      FROM media_transcripts t JOIN media md ON md.account_id = t.account_id AND md.id = t.media_id
     WHERE t.account_id = ${accountId} AND t.media_id IN ${list(mediaIds.map((r) => String(r.id)))}
     ORDER BY t.requested_at, t.id`);
    for (const r of rows) {
      const message = group.find((m) => m.chat_id === Number(r.chat_id) && m.id === Number(r.message_id));
      if (!message) continue;
      message.transcripts ??= [];
      message.transcripts.push({
        id: Number(r.id),
        media_id: String(r.media_id),
        status: String(r.status),
        text: str(r.text),
        language: str(r.language),
        source: str(r.source),
        engine_name: str(r.engine_name),
        engine_version: str(r.engine_version),
        confidence: num(r.confidence),
        duration_s: num(r.duration_s),
        requested_at: iso(r.requested_at),
        completed_at: iso(r.completed_at),
      });
    }
  }
}

export async function exportVersionPage(
  db: Db,
  f: ExportFilter,
  after: number | null,
  limit: number,
): Promise<{ versions: ExportVersion[]; last: number | null }> {
  const rows = await db.all(sql`SELECT v.id, v.chat_id, v.message_id, v.text, v.date FROM message_versions v
   WHERE ${window(f, 'v')} ${after === null ? sql`` : sql`AND v.id > ${after}`}
   ORDER BY v.id LIMIT ${limit}`);
  return {
    versions: rows.map((r) => ({
      chat_id: Number(r.chat_id),
      message_id: Number(r.message_id),
      text: str(r.text),
      date: iso(r.date),
    })),
    last: rows.length > 0 ? Number(rows[rows.length - 1]?.id) : null,
  };
}

export async function listCliChats(db: Db): Promise<CliChatRow[]> {
  const rows = await db.all(sql`SELECT account_id, id, type, title, first_name, last_name, username,
      last_message_date FROM chats ORDER BY last_message_date DESC, account_id, id`);
  return rows.map((r) => {
    const person = [str(r.first_name), str(r.last_name)].filter(Boolean).join(' ');
    return {
      accountId: Number(r.account_id),
      id: Number(r.id),
      type: String(r.type),
      name: (r.type === 'private' ? person || str(r.title) : str(r.title) || person) || str(r.username) || '',
      lastUpdated: iso(r.last_message_date),
    };
  });
}

/** The highest migration applied (0 when none). */
export async function schemaRevision(db: Db & { hasTable(name: string): Promise<boolean> }): Promise<number> {
  if (!(await db.hasTable('schema_migrations'))) return 0;
  const row = await db.get(sql`SELECT max(version) AS v FROM schema_migrations`);
  return Number(row?.v ?? 0);
}
