/**
 * What `GET /api/chats/{chat_ref}/export` streams: one chat's messages and their versions in a window, page
 * by page in archive order.
 */
import { mediaTypeOf } from '../../model/content-type';
import { asPoll } from '../../model/polls';
import { serviceOf } from '../../model/service-lines';
import type { Row } from '../driver';
import { bool, iso, isoRequired, num, parseJson, str, toTranscript } from '../rows';
import { join, list, type Sql, sql } from '../sql';
import type { ChatKey, ExportedMessage, ExportedMessageVersion, ExportWindow, Transcript } from '../types';
import { type Db, inChat } from './common';

function windowOf(w: ExportWindow, column: Sql): Sql[] {
  const parts: Sql[] = [];
  if (w.from) parts.push(sql`${column} >= ${w.from}`);
  if (w.to) parts.push(sql`${column} < ${w.to}`);
  return parts;
}

function toExported(r: Row): ExportedMessage {
  const message: ExportedMessage = {
    id: Number(r.id),
    date: isoRequired(r.date),
    sender: { id: num(r.sender_id), name: str(r.sender_name), username: str(r.sender_username) },
    text: str(r.text),
    is_outgoing: bool(r.is_outgoing),
    reply_to: num(r.reply_to_msg_id),
    edit_date: iso(r.edit_date),
    is_deleted: bool(r.is_deleted),
    deleted_at: iso(r.deleted_at),
    media:
      r.md_type === null || r.md_type === undefined
        ? null
        : {
            type: String(r.md_type),
            file_name: str(r.md_file_name),
            file_size: num(r.md_file_size),
            mime_type: mediaTypeOf(r.md_mime_type),
            width: num(r.md_width),
            height: num(r.md_height),
            duration: num(r.md_duration),
          },
  };
  // As the chat's messages show them (queries/messages.ts): a poll's question and options, a service
  // message's line in words.
  const poll = asPoll(parseJson(r.poll));
  if (poll) message.poll = poll;
  const service = serviceOf(parseJson<Record<string, unknown>>(r.raw_data), message.sender.name);
  if (service) message.service = service;
  return message;
}

async function transcriptsOf(db: Db, chat: ChatKey, ids: number[]): Promise<Map<number, Transcript[]>> {
  const out = new Map<number, Transcript[]>();
  if (ids.length === 0) return out;
  const rows = await db.all(sql`
    SELECT t.*, md.message_id AS message_id FROM media_transcripts t
      JOIN media md ON md.account_id = t.account_id AND md.id = t.media_id
     WHERE md.account_id = ${chat.accountId} AND md.chat_id = ${chat.chatId} AND md.message_id IN ${list(ids)}
     ORDER BY t.requested_at DESC, t.id DESC`);
  for (const r of rows) {
    const entry = out.get(Number(r.message_id)) ?? [];
    entry.push(toTranscript(r));
    out.set(Number(r.message_id), entry);
  }
  return out;
}

/** Keyset pages on (date, id): each batch is one indexed range read, whatever the chat's size. */
export async function* exportMessages(
  db: Db,
  chat: ChatKey,
  w: ExportWindow,
  batchSize = 1000,
): AsyncGenerator<ExportedMessage[]> {
  let after: { date: unknown; id: number } | null = null;
  for (;;) {
    const where = [inChat(chat), ...windowOf(w, sql`m.date`)];
    if (after) {
      where.push(sql`m.date >= ${after.date} AND NOT (m.date = ${after.date} AND m.id <= ${after.id})`);
    }
    const rows =
      await db.all(sql`SELECT m.id, m.date, m.sender_id, m.sender_name, u.username AS sender_username,
        m.text, m.is_outgoing, m.reply_to_msg_id, m.edit_date, m.is_deleted, m.deleted_at, m.poll, m.raw_data,
        md.type AS md_type, md.file_name AS md_file_name, md.file_size AS md_file_size,
        md.mime_type AS md_mime_type, md.width AS md_width, md.height AS md_height, md.duration AS md_duration
      FROM messages m
      LEFT JOIN media md ON md.account_id = m.account_id AND md.chat_id = m.chat_id AND md.message_id = m.id
      LEFT JOIN users u ON u.id = m.sender_id
      WHERE ${join(where, ' AND ')}
      ORDER BY m.date ASC, m.id ASC LIMIT ${batchSize}`);
    if (rows.length === 0) return;
    const last = rows[rows.length - 1] as Row;
    after = { date: last.date, id: Number(last.id) };
    const withMedia = rows
      .filter((r) => r.md_type !== null && r.md_type !== undefined)
      .map((r) => Number(r.id));
    const transcripts = await transcriptsOf(db, chat, withMedia);
    yield rows.map((r) => {
      const message = toExported(r);
      const found = transcripts.get(message.id);
      if (found && found.length > 0) message.transcripts = found;
      return message;
    });
    if (rows.length < batchSize) return;
  }
}

export async function* exportMessageVersions(
  db: Db,
  chat: ChatKey,
  w: ExportWindow,
  batchSize = 1000,
): AsyncGenerator<ExportedMessageVersion[]> {
  let afterId = 0;
  for (;;) {
    const where = [inChat(chat, 'v'), sql`v.id > ${afterId}`, ...windowOf(w, sql`m.date`)];
    const rows = await db.all(sql`SELECT v.id, v.chat_id, v.message_id, v.text, v.date FROM message_versions v
      JOIN messages m ON m.account_id = v.account_id AND m.chat_id = v.chat_id AND m.id = v.message_id
      WHERE ${join(where, ' AND ')} ORDER BY v.id ASC LIMIT ${batchSize}`);
    if (rows.length === 0) return;
    afterId = Number((rows[rows.length - 1] as Row).id);
    yield rows.map((r) => ({
      chat_id: Number(r.chat_id),
      message_id: Number(r.message_id),
      text: str(r.text),
      date: isoRequired(r.date),
    }));
    if (rows.length < batchSize) return;
  }
}
