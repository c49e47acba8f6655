import { attachmentOf } from '../../model/attachments';
import { asPoll, type Poll, pollHeadline } from '../../model/polls';
import { containsPattern } from '../../model/search';
import { quote, serviceOf } from '../../model/service-lines';
import { localDayRange, localMonthDays } from '../../model/timezone';
import type { DialectCapabilities } from '../dialects';
import type { Row } from '../driver';
import {
  bool,
  byCodePoint,
  iso,
  isoRequired,
  num,
  parseJson,
  str,
  toMessageMedia,
  toTranscript,
} from '../rows';
import { join, list, raw, type Sql, sql } from '../sql';
import type {
  ChatKey,
  MessageByDateQuery,
  MessageDatesQuery,
  MessageListQuery,
  MessageVersion,
  MessageView,
  Reaction,
  StoredMessage,
  Transcript,
  VersionSource,
} from '../types';
import { type Db, inChat, MEDIA_JOIN, MESSAGE_COLUMNS } from './common';

const NEWEST_FIRST = sql`ORDER BY m.date DESC, m.id DESC`;

async function reactionsOf(db: Db, chat: ChatKey, ids: number[]): Promise<Map<number, Reaction[]>> {
  const out = new Map<number, Reaction[]>();
  if (ids.length === 0) return out;
  const rows = await db.all(sql`
    SELECT message_id, emoji, sum(count) AS count FROM reactions
     WHERE account_id = ${chat.accountId} AND chat_id = ${chat.chatId} AND message_id IN ${list(ids)}
       AND removed_at IS NULL
     GROUP BY message_id, emoji`);
  for (const r of rows) {
    const count = Number(r.count);
    if (count < 1) continue;
    const entry = out.get(Number(r.message_id)) ?? [];
    entry.push({ emoji: String(r.emoji), count });
    out.set(Number(r.message_id), entry);
  }
  for (const entry of out.values()) entry.sort((a, b) => b.count - a.count || byCodePoint(a.emoji, b.emoji));
  return out;
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

/** How many earlier versions each message has. */
async function versionCountsOf(db: Db, chat: ChatKey, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.all(sql`
    SELECT message_id, count(*) AS n FROM message_versions
     WHERE account_id = ${chat.accountId} AND chat_id = ${chat.chatId} AND message_id IN ${list(ids)}
     GROUP BY message_id`);
  return new Map(rows.map((r) => [Number(r.message_id), Number(r.n)]));
}

/** What a message shows of another one it names (the one it answers, the one it pins). */
interface Referenced {
  senderName: string | null;
  mediaType: string | null;
  text: string | null;
  poll: Poll | null;
}

/** The archived messages these ones answer or pin, by id. */
async function referencedOf(db: Db, chat: ChatKey, ids: number[]): Promise<Map<number, Referenced>> {
  if (ids.length === 0) return new Map();
  const rows = await db.all(sql`
    SELECT r.id, r.sender_name, r.text, r.poll, md.type AS media_type FROM messages r
      LEFT JOIN media md ON md.account_id = r.account_id AND md.chat_id = r.chat_id AND md.message_id = r.id
     WHERE r.account_id = ${chat.accountId} AND r.chat_id = ${chat.chatId} AND r.id IN ${list(ids)}`);
  return new Map(
    rows.map((r) => [
      Number(r.id),
      {
        senderName: str(r.sender_name),
        mediaType: str(r.media_type),
        text: str(r.text),
        poll: asPoll(parseJson(r.poll)),
      },
    ]),
  );
}

/** A referenced message in a few words: the start of its text, its poll's question, or its media kind. */
function gist(m: Referenced | undefined): string | null {
  if (!m) return null;
  if (m.text?.trim()) return m.text;
  if (m.poll) return pollHeadline(m.poll);
  return null;
}

/** The id of the message a service message pins, when it names one. */
function pinnedId(raw: Record<string, unknown> | null): number | null {
  // The JSON export's and the platform's action, or the HTML export's words with the id beside them.
  const pin =
    raw?.action === 'pin_message' ||
    (typeof raw?.action_text === 'string' && /pinned/i.test(raw.action_text));
  if (!pin) return null;
  const id = Number(raw.message_id);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** Rows of a message query (MESSAGE_COLUMNS) dressed as the API's messages. */
async function toMessages(db: Db, chat: ChatKey, rows: Row[], view: MessageView): Promise<StoredMessage[]> {
  const ids = rows.map((r) => Number(r.id));
  const reactions = await reactionsOf(db, chat, ids);
  const { withTranscripts } = view;
  const transcripts = withTranscripts ? await transcriptsOf(db, chat, ids) : new Map<number, Transcript[]>();
  const versionCounts = await versionCountsOf(db, chat, ids);
  const raws = rows.map((r) => parseJson<Record<string, unknown>>(r.raw_data));
  const named = [...rows.map((r) => num(r.reply_to_msg_id)), ...raws.map((raw) => pinnedId(raw))].filter(
    (n) => n !== null,
  );
  const referenced = await referencedOf(db, chat, [...new Set(named)]);
  return rows.map((r, at) => {
    const id = Number(r.id);
    const senderId = num(r.sender_id);
    const raw = raws[at] ?? null;
    const replyTo = referenced.get(num(r.reply_to_msg_id) ?? 0);
    const message: StoredMessage = {
      id,
      chat_id: Number(r.chat_id),
      account_id: Number(r.account_id),
      sender_id: senderId,
      sender_name: str(r.sender_name),
      date: isoRequired(r.date),
      text: str(r.text),
      reply_to_msg_id: num(r.reply_to_msg_id),
      reply_to_top_id: num(r.reply_to_top_id),
      reply_to_text: str(r.reply_to_text) ?? gist(replyTo),
      reply_to_sender_name: replyTo?.senderName ?? null,
      reply_to_media_type: replyTo?.mediaType ?? (replyTo?.poll ? 'poll' : null),
      forward_from_id: num(r.forward_from_id),
      edit_date: iso(r.edit_date),
      is_outgoing: bool(r.is_outgoing),
      is_pinned: bool(r.is_pinned),
      is_deleted: bool(r.is_deleted),
      deleted_at: iso(r.deleted_at),
      version_count: versionCounts.get(id) ?? 0,
      raw_data: raw,
      reactions: reactions.get(id) ?? [],
    };
    const media = toMessageMedia(r);
    if (media) message.media = media;
    const poll = asPoll(parseJson(r.poll));
    if (poll) message.poll = poll;
    const pinned = gist(referenced.get(pinnedId(raw) ?? 0));
    const service = serviceOf(raw, message.sender_name, pinned === null ? null : quote(pinned));
    if (service) message.service = service;
    const attachment = service ? null : attachmentOf(raw);
    if (attachment) message.attachment = attachment;
    if (withTranscripts) message.transcripts = transcripts.get(id) ?? [];
    return message;
  });
}

function selectMessages(chat: ChatKey, where: Sql[], tail: Sql): Sql {
  return sql`SELECT ${MESSAGE_COLUMNS} FROM messages m ${MEDIA_JOIN}
    WHERE ${join([inChat(chat), ...where], ' AND ')} ${tail}`;
}

/** Messages an in-chat search reads first, in its page's order, before it decides how to go on. */
const SEARCH_WINDOW = 1000;
/** The most messages a search reads on when the window's matches say its page fills by then. */
const SEARCH_READ_ON = 20_000;

/** What an in-chat search reads of messages `m`, casefolded: a poll is found by its question or an option, as in the global search. */
export const foldedSearchText = (capabilities: DialectCapabilities): Sql =>
  capabilities.casefold(sql`coalesce(m.text, '') || ' ' || coalesce(m.poll_text, '')`);

/**
 * The conditions of an in-chat search: the exact one (the casefolded text, a poll's words included, holds
 * the needle), narrowed through the backend's substring index when reading on would be long. The first
 * SEARCH_WINDOW messages of the page's order are checked first: when their matches fill the page, or they
 * are all there is, or their rate says the page fills within SEARCH_READ_ON messages, the search reads on
 * without the index (a common word); else it asks the index (a rare or absent word). An index cheap to
 * ask (`early`) is asked before them, and ends an absent word's search at once. Either way the answer is
 * the same: the index only narrows which messages get the exact check. Null: no message holds the needle.
 */
async function searchConditions(
  db: Db,
  scope: Sql,
  order: Sql,
  search: string,
  need: number,
): Promise<Sql[] | null> {
  const folded = foldedSearchText(db.capabilities);
  const exact = sql`${folded} LIKE ${containsPattern(search)} ESCAPE '\\'`;
  const index = db.capabilities.substringCandidates;
  if (!index) return [exact];
  const needle = search.toLowerCase();
  const early = index.early ? await index.find(db, needle, folded) : undefined;
  if (early === null) return [exact];
  if (early === 'none') return null;
  if (await fillsFromNewest(db, scope, order, exact, need)) return [exact];
  const found = early ?? (await index.find(db, needle, folded));
  if (found === null) return [exact];
  if (found === 'none') return null;
  return found.exact ? [found.condition] : [exact, found.condition];
}

/** Whether reading the scope in its order fills `need` matches soon (see searchConditions). */
async function fillsFromNewest(db: Db, scope: Sql, order: Sql, exact: Sql, need: number): Promise<boolean> {
  const found = await db.get<{ hits: number }>(sql`SELECT count(*) AS hits FROM (
      SELECT 1 FROM (SELECT ${exact} AS hit FROM messages m WHERE ${scope} ${order} LIMIT ${SEARCH_WINDOW}) AS w
       WHERE hit LIMIT ${need}) AS h`);
  const hits = Number(found?.hits ?? 0);
  if (hits >= need) return true;
  const window = await db.get<{ rows: number }>(
    sql`SELECT count(*) AS rows FROM (SELECT 1 FROM messages m WHERE ${scope} LIMIT ${SEARCH_WINDOW}) AS w`,
  );
  if (Number(window?.rows ?? 0) < SEARCH_WINDOW) return true;
  return hits > 0 && (SEARCH_WINDOW * need) / hits <= SEARCH_READ_ON;
}

export async function listMessages(db: Db, chat: ChatKey, q: MessageListQuery): Promise<StoredMessage[]> {
  const where: Sql[] = [];
  if (q.topicId !== undefined) where.push(sql`m.reply_to_top_id = ${q.topicId}`);
  let order = NEWEST_FIRST;
  let offset: number | undefined;
  if (q.afterId !== undefined) {
    where.push(sql`m.id > ${q.afterId}`);
    order = sql`ORDER BY m.id ASC`;
  } else if (q.beforeDate !== undefined) {
    const d = q.beforeDate;
    where.push(
      q.beforeId === undefined
        ? sql`m.date < ${d}`
        : // Not an OR: the planners keep the date range on the chat's (date, id) index this way.
          sql`m.date <= ${d} AND NOT (m.date = ${d} AND m.id >= ${q.beforeId})`,
    );
  } else if (q.beforeId !== undefined) {
    where.push(sql`m.id < ${q.beforeId}`);
    order = sql`ORDER BY m.id DESC`;
  } else {
    offset = q.offset ?? 0;
  }
  if (q.search) {
    const scope = join([inChat(chat), ...where], ' AND ');
    const conditions = await searchConditions(db, scope, order, q.search, (offset ?? 0) + q.limit);
    if (conditions === null) return [];
    where.push(...conditions);
  }
  const tail =
    offset === undefined ? sql`${order} LIMIT ${q.limit}` : sql`${order} LIMIT ${q.limit} OFFSET ${offset}`;
  const rows = await db.all(selectMessages(chat, where, tail));
  if (q.afterId !== undefined) rows.reverse();
  return toMessages(db, chat, rows, q);
}

export async function getMessage(
  db: Db,
  chat: ChatKey,
  id: number,
  view: MessageView,
): Promise<StoredMessage | null> {
  const rows = await db.all(selectMessages(chat, [sql`m.id = ${id}`], sql``));
  return (await toMessages(db, chat, rows, view))[0] ?? null;
}

export async function listPinnedMessages(db: Db, chat: ChatKey, view: MessageView): Promise<StoredMessage[]> {
  const rows = await db.all(selectMessages(chat, [sql`m.is_pinned = TRUE`], NEWEST_FIRST));
  return toMessages(db, chat, rows, view);
}

export async function listMessageVersions(
  db: Db,
  chat: ChatKey,
  messageId: number,
  limit: number,
): Promise<MessageVersion[]> {
  const rows = await db.all(sql`
    SELECT chat_id, message_id, text, date, captured_at, source FROM message_versions
     WHERE account_id = ${chat.accountId} AND chat_id = ${chat.chatId} AND message_id = ${messageId}
     ORDER BY date DESC, id DESC LIMIT ${limit}`);
  return rows.map((r) => ({
    chat_id: Number(r.chat_id),
    message_id: Number(r.message_id),
    text: str(r.text),
    date: isoRequired(r.date),
    captured_at: iso(r.captured_at),
    source: str(r.source) as VersionSource | null,
  }));
}

const inTopic = (topicId: number | undefined) =>
  topicId === undefined ? sql`` : sql`AND m.reply_to_top_id = ${topicId}`;

export async function findMessageByDate(
  db: Db,
  chat: ChatKey,
  q: MessageByDateQuery,
  view: MessageView,
): Promise<StoredMessage | null> {
  const { start } = localDayRange(q.date, q.timezone);
  const rows = await db.all(sql`SELECT ${MESSAGE_COLUMNS} FROM messages m ${MEDIA_JOIN}
    WHERE ${inChat(chat)} AND m.date >= ${start} ${inTopic(q.topicId)}
    ORDER BY m.date ASC, m.id ASC LIMIT 1`);
  return (await toMessages(db, chat, rows, view))[0] ?? null;
}

export async function listMessageDates(db: Db, chat: ChatKey, q: MessageDatesQuery): Promise<string[]> {
  const days = localMonthDays(q.month, q.timezone);
  const probes = days.map(
    (day, i) => sql`SELECT ${raw(String(i))} AS day WHERE EXISTS (SELECT 1 FROM messages m
      WHERE ${inChat(chat)} AND m.date >= ${day.start} AND m.date < ${day.end} ${inTopic(q.topicId)})`,
  );
  const rows = await db.all<{ day: number }>(join(probes, ' UNION ALL '));
  return rows
    .map((r) => Number(r.day))
    .sort((a, b) => a - b)
    .map((i) => days[i]?.date ?? '');
}
