import { pageWithoutSplitTies, splitInstant } from '../../model/changes';
import type { Row } from '../driver';
import { chatName, isoRequired, str } from '../rows';
import { join, list, raw, type Sql, sql } from '../sql';
import type { Change, ChangePage, ChangeQuery, ChatType, Visibility } from '../types';
import { CHAT_JOIN, type Db, visibleChats } from './common';

function window(column: string, q: ChangeQuery): Sql {
  const parts: Sql[] = [sql`${raw(column)} IS NOT NULL`];
  if (q.since) parts.push(sql`${raw(column)} >= ${q.since}`);
  if (q.before) parts.push(sql`${raw(column)} < ${q.before}`);
  return join(parts, ' AND ');
}

const FEED_CHAT = raw(
  'c.ref AS c_ref, c.type AS c_type, c.title AS c_title, c.first_name, c.last_name, c.username',
);

/** Up to `take` feed rows, newest first, in one order on every backend. */
async function feedRows(db: Db, vis: Visibility, q: ChangeQuery, take: number): Promise<Row[]> {
  const branches = [
    sql`SELECT * FROM (SELECT 'deleted' AS kind, m.deleted_at AS changed_at, 0 AS seq, m.account_id, m.chat_id,
          m.id AS message_id, m.sender_name, m.text AS text, NULL AS old_text, m.text AS current_text,
          NULL AS language, ${FEED_CHAT}
        FROM messages m ${CHAT_JOIN}
       WHERE m.is_deleted = TRUE AND ${window('m.deleted_at', q)} AND ${visibleChats(vis)}
       ORDER BY m.deleted_at DESC, m.account_id, m.chat_id, m.id DESC LIMIT ${take}) d`,
    sql`SELECT * FROM (SELECT 'edited' AS kind, v.replaced_at AS changed_at, v.id AS seq, m.account_id, m.chat_id,
          m.id AS message_id, m.sender_name, NULL AS text, v.text AS old_text, m.text AS current_text,
          NULL AS language, ${FEED_CHAT}
        FROM message_versions v
        JOIN messages m ON m.account_id = v.account_id AND m.chat_id = v.chat_id AND m.id = v.message_id
        ${CHAT_JOIN}
       WHERE ${window('v.replaced_at', q)} AND ${visibleChats(vis)}
       ORDER BY v.replaced_at DESC, m.account_id, m.chat_id, m.id DESC, v.id DESC LIMIT ${take}) e`,
  ];
  if (q.includeTranscripts) {
    branches.push(sql`SELECT * FROM (SELECT 'transcript' AS kind, t.completed_at AS changed_at, t.id AS seq,
          m.account_id, m.chat_id, m.id AS message_id, m.sender_name, t.text AS text, NULL AS old_text,
          NULL AS current_text, t.language AS language, ${FEED_CHAT}
        FROM media_transcripts t
        JOIN media md ON md.account_id = t.account_id AND md.id = t.media_id
        JOIN messages m ON m.account_id = md.account_id AND m.chat_id = md.chat_id AND m.id = md.message_id
        ${CHAT_JOIN}
       WHERE t.status = 'done' AND ${window('t.completed_at', q)} AND ${visibleChats(vis)}
       ORDER BY t.completed_at DESC, m.account_id, m.chat_id, m.id DESC, t.id DESC LIMIT ${take}) t`);
  }
  return db.all(sql`SELECT * FROM (${join(branches, ' UNION ALL ')}) u
    ORDER BY changed_at DESC, kind, account_id, chat_id, message_id DESC, seq DESC LIMIT ${take}`);
}

/** Most entries returned for one instant that fills a whole page (a mass deletion stamped at once). */
const INSTANT_CAP = 10_000;

export async function listChanges(db: Db, vis: Visibility, q: ChangeQuery): Promise<ChangePage> {
  const dateOf = (r: Row) => isoRequired(r.changed_at);
  const rows = await feedRows(db, vis, q, q.limit + 1);
  const instant = splitInstant(rows, q.limit, dateOf);
  let page = pageWithoutSplitTies(rows, q.limit, dateOf);
  if (instant !== null) {
    // No timestamp lies between entries of one instant, so the page holds all of them.
    const since = new Date(instant);
    const before = new Date(since.getTime() + 1);
    page = await feedRows(db, vis, { ...q, since, before }, INSTANT_CAP);
  }
  const newTexts = await textsAfterEdits(db, page);
  const changes = page.map((r, i): Change => {
    const base = {
      date: isoRequired(r.changed_at),
      chat: {
        ref: String(r.c_ref),
        title: chatName({
          type: r.c_type,
          title: r.c_title,
          first_name: r.first_name,
          last_name: r.last_name,
          username: r.username,
        }),
        type: r.c_type as ChatType,
      },
      message_id: Number(r.message_id),
      sender_name: str(r.sender_name),
    };
    if (r.kind === 'deleted') return { kind: 'deleted', ...base, text: str(r.text) };
    if (r.kind === 'edited') {
      return { kind: 'edited', ...base, old_text: str(r.old_text), new_text: newTexts.get(i) ?? null };
    }
    return { kind: 'transcript', ...base, text: str(r.text), language: str(r.language) };
  });
  return { changes, nextBefore: changes.length > 0 ? (changes[changes.length - 1]?.date ?? null) : null };
}

/**
 * The text an edit produced: the next captured version of the message, or its current text when the
 * edit was the last one. Keyed by position in the page.
 */
async function textsAfterEdits(db: Db, page: Row[]): Promise<Map<number, string | null>> {
  const out = new Map<number, string | null>();
  const edited = page.map((r, i) => ({ r, i })).filter(({ r }) => r.kind === 'edited');
  if (edited.length === 0) return out;
  const seqs = edited.map(({ r }) => Number(r.seq));
  const rows = await db.all(sql`
    SELECT v.id, v.text, v.date, v.account_id, v.chat_id, v.message_id FROM message_versions v
     WHERE EXISTS (SELECT 1 FROM message_versions e WHERE e.id IN ${list(seqs)}
        AND e.account_id = v.account_id AND e.chat_id = v.chat_id AND e.message_id = v.message_id)
     ORDER BY v.date, v.id`);
  const key = (r: Row) => `${r.account_id}/${r.chat_id}/${r.message_id}`;
  const history = new Map<string, Row[]>();
  for (const row of rows) history.set(key(row), [...(history.get(key(row)) ?? []), row]);
  for (const { r, i } of edited) {
    const versions = history.get(key(r)) ?? [];
    const at = versions.findIndex((v) => Number(v.id) === Number(r.seq));
    const next = at >= 0 ? versions[at + 1] : undefined;
    out.set(i, next ? str(next.text) : str(r.current_text));
  }
  return out;
}
