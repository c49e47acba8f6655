import { randomBytes } from 'node:crypto';
import { storageMediaId } from '../../model/media-layout';
import { pollSearchText } from '../../model/polls';

export { storageMediaId };

import { mediaTypeOf } from '../../model/content-type';
import type { Driver } from '../driver';
import { str } from '../rows';
import { join, json, list, raw, type Sql, sql } from '../sql';
import type {
  MessageEdit,
  MessageRef,
  NewAccount,
  NewAvatar,
  NewChat,
  NewFolder,
  NewMedia,
  NewMessage,
  NewTopic,
  NewTranscript,
  NewUser,
} from '../writer';
import type { Db } from './common';
import { flushPrefixTerms } from './search';

/** 128 random bits, 22 URL-safe characters. */
export const mintChatRef = () => randomBytes(16).toString('base64url');

const REF = /^[A-Za-z0-9_-]{22}$/;

export async function upsertAccount(driver: Driver, a: NewAccount): Promise<number> {
  if (a.id === undefined) {
    const row = await driver.get(sql`INSERT INTO accounts (label, platform_user_id)
      VALUES (${a.label ?? null}, ${a.platformUserId ?? null}) RETURNING id`);
    return Number(row?.id);
  }
  await driver.run(sql`INSERT INTO accounts (id, label, platform_user_id)
    VALUES (${a.id}, ${a.label ?? null}, ${a.platformUserId ?? null})
    ON CONFLICT (id) DO UPDATE SET label = coalesce(excluded.label, accounts.label),
      platform_user_id = coalesce(excluded.platform_user_id, accounts.platform_user_id)`);
  const afterExplicitId = driver.capabilities.afterExplicitId('accounts');
  if (afterExplicitId) await driver.run(afterExplicitId);
  return a.id;
}

/**
 * The rule of every upsert of the writer: a source updates only what it carries. A field the row holds (a
 * value, or null for "known to be empty") writes its columns; a field left out (undefined: an export that
 * has no such thing) keeps what was recorded. `columns` maps each optional field to the columns it writes.
 */
function carried<T extends object>(
  row: T,
  columns: Readonly<Partial<Record<keyof T, readonly string[]>>>,
): string[] {
  return (Object.keys(columns) as (keyof T)[])
    .filter((field) => row[field] !== undefined)
    .flatMap((field) => columns[field] ?? []);
}

const setExcluded = (names: readonly string[]) => join(names.map((c) => raw(`${c} = excluded.${c}`)));

const CHAT_FIELDS: Readonly<Partial<Record<keyof NewChat, readonly string[]>>> = {
  title: ['title'],
  username: ['username'],
  firstName: ['first_name'],
  lastName: ['last_name'],
  phone: ['phone'],
  description: ['description'],
  participantsCount: ['participants_count'],
  isForum: ['is_forum'],
  isArchived: ['is_archived'],
};

const USER_FIELDS: Readonly<Partial<Record<keyof NewUser, readonly string[]>>> = {
  username: ['username'],
  firstName: ['first_name'],
  lastName: ['last_name'],
  phone: ['phone'],
  isBot: ['is_bot'],
};

const MESSAGE_FIELDS: Readonly<Partial<Record<keyof NewMessage, readonly string[]>>> = {
  senderId: ['sender_id'],
  senderName: ['sender_name'],
  text: ['text'],
  replyToMsgId: ['reply_to_msg_id'],
  replyToTopId: ['reply_to_top_id'],
  replyToText: ['reply_to_text'],
  forwardFromId: ['forward_from_id'],
  editDate: ['edit_date'],
  rawData: ['raw_data'],
  isOutgoing: ['is_outgoing'],
  isPinned: ['is_pinned'],
  poll: ['poll', 'poll_text'],
};

const MEDIA_FIELDS: Readonly<Partial<Record<keyof NewMedia, readonly string[]>>> = {
  filePath: ['file_path'],
  fileName: ['file_name'],
  fileSize: ['file_size'],
  mimeType: ['mime_type'],
  width: ['width'],
  height: ['height'],
  duration: ['duration'],
  contentHash: ['content_hash'],
  downloaded: ['downloaded'],
  downloadAttempts: ['download_attempts'],
  skipReason: ['skip_reason'],
  downloadDate: ['download_date'],
};

export async function upsertChat(driver: Driver, c: NewChat): Promise<string> {
  return driver.transaction((tx) => upsertChatIn(tx, c));
}

/** upsertChat inside a transaction the caller holds (an import, a merge). */
export async function upsertChatIn(tx: Db, c: NewChat): Promise<string> {
  if (c.ref !== undefined && !REF.test(c.ref)) throw new RangeError('a chat ref is 22 URL-safe characters');
  const known = await tx.get(
    sql`SELECT ref FROM chat_refs WHERE account_id = ${c.accountId} AND chat_id = ${c.id}`,
  );
  let ref = str(known?.ref);
  if (ref === null) {
    ref = c.ref ?? mintChatRef();
    await tx.run(
      sql`INSERT INTO chat_refs (ref, account_id, chat_id) VALUES (${ref}, ${c.accountId}, ${c.id})`,
    );
  }
  const now = new Date();
  await tx.run(sql`INSERT INTO chats (account_id, id, ref, type, title, username, first_name, last_name, phone,
      description, participants_count, is_forum, is_archived, avatar_photo_id, created_at, updated_at)
    VALUES (${c.accountId}, ${c.id}, ${ref}, ${c.type}, ${c.title ?? null}, ${c.username ?? null},
      ${c.firstName ?? null}, ${c.lastName ?? null}, ${c.phone ?? null}, ${c.description ?? null},
      ${c.participantsCount ?? null}, ${c.isForum ?? false}, ${c.isArchived ?? false},
      ${c.avatarPhotoId ?? null}, ${now}, ${now})
    ON CONFLICT (account_id, id) DO UPDATE SET ${setExcluded(['type', ...carried(c, CHAT_FIELDS), 'updated_at'])},
      avatar_photo_id = coalesce(excluded.avatar_photo_id, chats.avatar_photo_id)`);
  return ref;
}

export async function upsertUser(db: Db, u: NewUser): Promise<void> {
  const now = new Date();
  await db.run(sql`INSERT INTO users (id, username, first_name, last_name, phone, is_bot, created_at, updated_at)
    VALUES (${u.id}, ${u.username ?? null}, ${u.firstName ?? null}, ${u.lastName ?? null}, ${u.phone ?? null},
      ${u.isBot ?? false}, ${now}, ${now})
    ON CONFLICT (id) DO UPDATE SET ${setExcluded([...carried(u, USER_FIELDS), 'updated_at'])}`);
}

/**
 * Messages a bulk write puts in one INSERT: 18 values each, 20 where each row looks its slot up (orderKey),
 * so at most 10,000 parameters, within both backends' limits (32,766 and 65,535). A caller writing in
 * batches of this size writes each batch as one statement.
 */
export const MESSAGES_PER_STATEMENT = 500;
const SLOTS_PER_SECOND = 2 ** 21;

/**
 * The message's place in archive order (see the messages table): the next free slot of its second. Rows
 * of one statement cannot see each other, so the `n`-th row of a batch in the same second adds `n`.
 */
export function orderKey(date: Date, n: number): Sql {
  const base = Math.floor(date.getTime() / 1000) * SLOTS_PER_SECOND;
  return sql`((SELECT coalesce(max(pk) + 1, ${base}) FROM messages
    WHERE pk >= ${base} AND pk < ${base + SLOTS_PER_SECOND}) + ${n})`;
}

/** Messages a batch may find in its seconds' slots and still read them at once (a few milliseconds). */
const SLOT_READ_LIMIT = 20_000;

/**
 * The first free slot of each second the given dates fall in, read in one range of keys inside the
 * caller's transaction; null when that range holds more messages than are worth reading, and each row
 * then looks its slot up itself (orderKey). Looked up per row, the slot had cost half of an import's
 * time in SQLite (scripts/bench/README.md, command line).
 */
export async function freeSlots(
  tx: Db,
  dates: Date[],
  limit = SLOT_READ_LIMIT,
): Promise<Map<number, number> | null> {
  if (dates.length === 0) return new Map();
  const seconds = dates.map((d) => Math.floor(d.getTime() / 1000));
  const low = Math.min(...seconds) * SLOTS_PER_SECOND;
  const high = (Math.max(...seconds) + 1) * SLOTS_PER_SECOND;
  const taken = await tx.all(
    sql`SELECT pk FROM messages WHERE pk >= ${low} AND pk < ${high} LIMIT ${limit + 1}`,
  );
  if (taken.length > limit) return null;
  const next = new Map<number, number>();
  for (const row of taken) {
    const pk = Number(row.pk);
    const second = Math.floor(pk / SLOTS_PER_SECOND);
    next.set(second, Math.max(next.get(second) ?? 0, pk + 1));
  }
  return next;
}

/**
 * `orderKey` with the slots already read (freeSlots): the key itself, bound as a value; without them,
 * the subquery by which the row looks it up.
 */
export function slotKey(slots: Map<number, number> | null, date: Date, n: number): number | Sql {
  if (!slots) return orderKey(date, n);
  const second = Math.floor(date.getTime() / 1000);
  return (slots.get(second) ?? second * SLOTS_PER_SECOND) + n;
}

/**
 * A channel's post has no sender of its own: the channel is its sender (its id and title), as the
 * upstream records it, whatever wrote the message (the backup, an import, the demo). Looked up only for a
 * message without a sender, in a chat the archive holds as a channel.
 */
function senderOf(m: NewMessage): { id: Sql; name: Sql } {
  if (m.senderId !== null && m.senderId !== undefined)
    return { id: sql`${m.senderId}`, name: sql`${m.senderName ?? null}` };
  const channel = (column: string) =>
    sql`(SELECT ${raw(column)} FROM chats WHERE account_id = ${m.accountId} AND id = ${m.chatId} AND type = 'channel')`;
  return { id: channel('id'), name: m.senderName ? sql`${m.senderName}` : channel('title') };
}

function messageValues(m: NewMessage, key: number | Sql): Sql {
  const sender = senderOf(m);
  return sql`(${key}, ${m.accountId}, ${m.chatId}, ${m.id}, ${sender.id},
    ${sender.name}, ${m.date}, ${m.text ?? null}, ${m.replyToMsgId ?? null}, ${m.replyToTopId ?? null},
    ${m.replyToText ?? null}, ${m.forwardFromId ?? null}, ${m.editDate ?? null}, ${json(m.rawData ?? null)},
    ${m.isOutgoing ?? false}, ${m.isPinned ?? false}, ${json(m.poll ?? null)},
    ${m.poll ? pollSearchText(m.poll) : null})`;
}

export async function upsertMessages(driver: Driver, messages: NewMessage[]): Promise<void> {
  if (messages.length === 0) return;
  // One statement may not touch the same row twice (PostgreSQL): the last copy of a message wins.
  const unique = [...new Map(messages.map((m) => [`${m.accountId}/${m.chatId}/${m.id}`, m])).values()];
  await driver.transaction(async (tx) => {
    await insertMessageRows(tx, unique);
    // The words of a few messages join the list of the index's words at once (bulk loads move them at
    // the end: compactSearchIndex).
    await flushPrefixTerms(tx);
  });
}

/**
 * Inserts or updates messages (each at most once in the list) inside the caller's transaction.
 * `slotReadLimit`: see freeSlots.
 */
export async function insertMessageRows(
  tx: Db,
  unique: NewMessage[],
  slotReadLimit = SLOT_READ_LIMIT,
): Promise<void> {
  for (let i = 0; i < unique.length; i += MESSAGES_PER_STATEMENT) {
    const batch = unique.slice(i, i + MESSAGES_PER_STATEMENT);
    const perSecond = new Map<number, number>();
    const slots = await freeSlots(
      tx,
      batch.map((m) => m.date),
      slotReadLimit,
    );
    // Rows carrying the same fields share a statement (a source's rows usually all do); the slots were
    // read for the whole batch, so the statements of one batch take different ones.
    const bySet = new Map<string, { set: string[]; rows: Sql[] }>();
    for (const m of batch) {
      const second = Math.floor(m.date.getTime() / 1000);
      const n = perSecond.get(second) ?? 0;
      perSecond.set(second, n + 1);
      const set = ['date', ...carried(m, MESSAGE_FIELDS)];
      const group = bySet.get(set.join()) ?? { set, rows: [] };
      bySet.set(set.join(), group);
      group.rows.push(messageValues(m, slotKey(slots, m.date, n)));
    }
    for (const { set, rows } of bySet.values()) {
      await tx.run(sql`INSERT INTO messages (pk, account_id, chat_id, id, sender_id, sender_name, date, text,
          reply_to_msg_id, reply_to_top_id, reply_to_text, forward_from_id, edit_date, raw_data, is_outgoing,
          is_pinned, poll, poll_text)
        VALUES ${join(rows)}
        ON CONFLICT (account_id, chat_id, id) DO UPDATE SET ${setExcluded(set)}`);
    }
  }
}

const whereMessage = (r: MessageRef) =>
  sql`account_id = ${r.accountId} AND chat_id = ${r.chatId} AND id = ${r.messageId}`;

export async function editMessage(driver: Driver, e: MessageEdit): Promise<void> {
  await driver.transaction(async (tx) => {
    const current = await tx.get(sql`SELECT text, date, edit_date FROM messages WHERE ${whereMessage(e)}`);
    if (!current) throw new RangeError('no such message');
    const since = current.edit_date ?? current.date;
    await tx.run(sql`INSERT INTO message_versions (account_id, chat_id, message_id, text, date, replaced_at,
        captured_at, source)
      VALUES (${e.accountId}, ${e.chatId}, ${e.messageId}, ${str(current.text)},
        ${since instanceof Date ? since : new Date(String(since))}, ${e.editDate}, ${e.capturedAt ?? new Date()},
        ${e.source})`);
    await tx.run(
      sql`UPDATE messages SET text = ${e.text}, edit_date = ${e.editDate} WHERE ${whereMessage(e)}`,
    );
    await flushPrefixTerms(tx);
  });
}

export async function markMessageDeleted(db: Db, r: MessageRef, deletedAt: Date): Promise<void> {
  await db.run(sql`UPDATE messages SET is_deleted = TRUE, deleted_at = ${deletedAt}
    WHERE ${whereMessage(r)} AND is_deleted = FALSE`);
}

export async function deleteMessage(db: Db, r: MessageRef): Promise<void> {
  await db.run(sql`DELETE FROM messages WHERE ${whereMessage(r)}`);
}

export async function setMessagePinned(db: Db, r: MessageRef, pinned: boolean): Promise<void> {
  await db.run(sql`UPDATE messages SET is_pinned = ${pinned} WHERE ${whereMessage(r)}`);
}

export async function upsertMedia(db: Db, m: NewMedia): Promise<string> {
  const id = storageMediaId(m.chatId, m.messageId, m.type);
  const row =
    await db.get(sql`INSERT INTO media (account_id, id, chat_id, message_id, type, file_path, file_name,
      file_size, mime_type, width, height, duration, content_hash, downloaded, download_attempts, skip_reason,
      download_date)
    VALUES (${m.accountId}, ${id}, ${m.chatId}, ${m.messageId}, ${m.type}, ${m.filePath ?? null},
      ${m.fileName ?? null}, ${m.fileSize ?? null}, ${mediaTypeOf(m.mimeType)}, ${m.width ?? null}, ${m.height ?? null},
      ${m.duration ?? null}, ${m.contentHash ?? null}, ${m.downloaded ?? false}, ${m.downloadAttempts ?? 0},
      ${m.skipReason ?? null}, ${m.downloadDate ?? null})
    ON CONFLICT (account_id, chat_id, message_id) DO UPDATE SET ${setExcluded(['message_id', ...carried(m, MEDIA_FIELDS)])}
    RETURNING id`);
  return String(row?.id ?? id);
}

export async function addTranscript(db: Db, t: NewTranscript): Promise<number> {
  const row =
    await db.get(sql`INSERT INTO media_transcripts (account_id, media_id, status, error, text, language,
      source, engine_name, engine_version, preset, models, confidence, duration_s, turns, requested_at,
      completed_at)
    VALUES (${t.accountId}, ${t.mediaId}, ${t.status}, ${t.error ?? null}, ${t.text ?? null}, ${t.language ?? null},
      ${t.source ?? null}, ${t.engineName ?? null}, ${t.engineVersion ?? null}, ${t.preset ?? null},
      ${json(t.models ?? null)}, ${t.confidence ?? null}, ${t.durationS ?? null}, ${json(t.turns ?? null)},
      ${t.requestedAt}, ${t.completedAt ?? null})
    RETURNING id`);
  return Number(row?.id);
}

export async function setReactions(
  driver: Driver,
  r: MessageRef,
  reactions: { emoji: string; count: number }[],
  now = new Date(),
): Promise<void> {
  const on = sql`account_id = ${r.accountId} AND chat_id = ${r.chatId} AND message_id = ${r.messageId}`;
  await driver.transaction(async (tx) => {
    const keep = reactions.filter((x) => x.count > 0).map((x) => x.emoji);
    await tx.run(sql`UPDATE reactions SET removed_at = ${now}
      WHERE ${on} AND user_id IS NULL AND removed_at IS NULL
        ${keep.length > 0 ? sql`AND emoji NOT IN ${list(keep)}` : sql``}`);
    for (const x of reactions.filter((y) => y.count > 0)) {
      const { changes } = await tx.run(sql`UPDATE reactions SET count = ${x.count}, removed_at = NULL
        WHERE ${on} AND emoji = ${x.emoji} AND user_id IS NULL`);
      if (changes === 0) {
        await tx.run(sql`INSERT INTO reactions (account_id, chat_id, message_id, emoji, count, created_at)
          VALUES (${r.accountId}, ${r.chatId}, ${r.messageId}, ${x.emoji}, ${x.count}, ${now})`);
      }
    }
  });
}

export async function upsertTopic(db: Db, t: NewTopic): Promise<void> {
  const now = new Date();
  await db.run(sql`INSERT INTO forum_topics (account_id, chat_id, id, title, icon_color, icon_emoji, is_closed,
      is_pinned, is_hidden, date, created_at, updated_at)
    VALUES (${t.accountId}, ${t.chatId}, ${t.id}, ${t.title}, ${t.iconColor ?? null}, ${t.iconEmoji ?? null},
      ${t.isClosed ?? false}, ${t.isPinned ?? false}, ${t.isHidden ?? false}, ${t.date ?? null}, ${now}, ${now})
    ON CONFLICT (account_id, chat_id, id) DO UPDATE SET title = excluded.title, icon_color = excluded.icon_color,
      icon_emoji = excluded.icon_emoji, is_closed = excluded.is_closed, is_pinned = excluded.is_pinned,
      is_hidden = excluded.is_hidden, date = coalesce(excluded.date, forum_topics.date),
      updated_at = excluded.updated_at`);
}

export async function upsertFolder(driver: Driver, f: NewFolder): Promise<void> {
  await driver.transaction(async (tx) => {
    await tx.run(sql`INSERT INTO chat_folders (account_id, id, title, emoticon, sort_order)
      VALUES (${f.accountId}, ${f.id}, ${f.title}, ${f.emoticon ?? null}, ${f.sortOrder})
      ON CONFLICT (account_id, id) DO UPDATE SET title = excluded.title, emoticon = excluded.emoticon,
        sort_order = excluded.sort_order`);
    await tx.run(
      sql`DELETE FROM chat_folder_members WHERE account_id = ${f.accountId} AND folder_id = ${f.id}`,
    );
    for (const chatId of new Set(f.chatIds)) {
      await tx.run(sql`INSERT INTO chat_folder_members (account_id, folder_id, chat_id)
        VALUES (${f.accountId}, ${f.id}, ${chatId})`);
    }
  });
}

export async function addAvatar(driver: Driver, a: NewAvatar): Promise<void> {
  await driver.transaction(async (tx) => {
    await tx.run(sql`INSERT INTO avatar_history (account_id, chat_id, photo_id, file_path, seen_at)
      VALUES (${a.accountId}, ${a.chatId}, ${a.photoId}, ${a.filePath ?? null}, ${a.seenAt})`);
    const newest = await tx.get(sql`SELECT photo_id FROM avatar_history
      WHERE account_id = ${a.accountId} AND chat_id = ${a.chatId} ORDER BY seen_at DESC, id DESC LIMIT 1`);
    await tx.run(sql`UPDATE chats SET avatar_photo_id = ${str(newest?.photo_id)}
      WHERE account_id = ${a.accountId} AND id = ${a.chatId}`);
  });
}

export async function setSyncStatus(
  db: Db,
  accountId: number,
  chatId: number,
  lastId: number,
  at: Date,
): Promise<void> {
  await db.run(sql`INSERT INTO sync_status (account_id, chat_id, last_message_id, last_sync_date, message_count)
    VALUES (${accountId}, ${chatId}, ${lastId}, ${at},
      (SELECT count(*) FROM messages WHERE account_id = ${accountId} AND chat_id = ${chatId}))
    ON CONFLICT (account_id, chat_id) DO UPDATE SET last_message_id = excluded.last_message_id,
      last_sync_date = excluded.last_sync_date, message_count = excluded.message_count`);
  await db.run(
    sql`UPDATE chats SET last_synced_message_id = ${lastId} WHERE account_id = ${accountId} AND id = ${chatId}`,
  );
}
