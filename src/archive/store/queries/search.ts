import { containsPattern, searchWords } from '../../model/search';
import { parseTag, TAG_SCAN_CAP, textHasTag } from '../../model/tags';
import type { Driver, Row } from '../driver';
import { str, toSearchResult } from '../rows';
import { join, list, raw, type Sql, sql } from '../sql';
import type { SearchPage, SearchQuery, TagPage, TagQuery, Visibility } from '../types';
import { CHAT_JOIN, type Db, inChat, isRestricted, RESULT_CHAT_COLUMNS, visibleChats } from './common';

const RESULT_COLUMNS = sql`m.pk, m.account_id, m.chat_id, m.id, m.date, m.text, m.poll_text, m.sender_name, m.is_outgoing,
  m.is_deleted, ft.title AS topic_title, ${RESULT_CHAT_COLUMNS}`;

const TOPIC_JOIN = raw(`LEFT JOIN forum_topics ft ON c.is_forum = TRUE AND ft.account_id = m.account_id
  AND ft.chat_id = m.chat_id AND ft.id = m.reply_to_top_id`);

/**
 * Messages whose text matches, newest first in archive order (pk): through the full-text index when
 * `words` are given, else the conditions in `where` (a substring match) walk the messages.
 */
function textMatches(db: Db, words: string[] | null, prefix: boolean, where: Sql[], tail: Sql): Sql {
  if (words) {
    const match = db.capabilities.matchMessageText(words, prefix);
    return sql`SELECT ${RESULT_COLUMNS} FROM ${match.from} ${CHAT_JOIN} ${TOPIC_JOIN}
      WHERE ${join([match.where, ...where], ' AND ')} ${match.newestFirst} ${tail}`;
  }
  return sql`SELECT ${RESULT_COLUMNS} FROM messages m ${CHAT_JOIN} ${TOPIC_JOIN}
    WHERE ${join(where, ' AND ')} ORDER BY m.pk DESC ${tail}`;
}

/**
 * The archive-order keys (pk) of the first `take` messages whose text matches, newest first: a search
 * page is cut by key, and only its own rows are read whole (resultRows). The chats are joined only when
 * the caller sees some of them.
 */
function textMatchKeys(db: Db, words: string[] | null, where: Sql[], vis: Visibility, take: number): Sql {
  const chats = isRestricted(vis) ? CHAT_JOIN : sql``;
  if (words) {
    const match = db.capabilities.matchMessageText(words, true);
    if (match.keysOnly && !isRestricted(vis))
      return sql`SELECT ${match.keysOnly.key} AS pk FROM ${match.keysOnly.from}
        WHERE ${match.where} ${match.newestFirst} LIMIT ${take}`;
    return sql`SELECT m.pk FROM ${match.from} ${chats}
      WHERE ${join([match.where, ...where], ' AND ')} ${match.newestFirst} LIMIT ${take}`;
  }
  return sql`SELECT m.pk FROM messages m ${chats} WHERE ${join(where, ' AND ')} ORDER BY m.pk DESC LIMIT ${take}`;
}

/** The same keys for messages whose media's transcript matches. */
function transcriptMatchKeys(
  db: Db,
  words: string[] | null,
  pattern: string,
  vis: Visibility,
  take: number,
): Sql {
  const found =
    words === null
      ? sql`${db.capabilities.casefold(sql`t.text`)} LIKE ${pattern} ESCAPE '\\'`
      : db.capabilities.matchTranscriptText(words);
  return sql`SELECT m.pk FROM messages m ${isRestricted(vis) ? CHAT_JOIN : sql``}
    WHERE (m.account_id, m.chat_id, m.id) IN (
      SELECT md.account_id, md.chat_id, md.message_id FROM media_transcripts t
        JOIN media md ON md.account_id = t.account_id AND md.id = t.media_id
       WHERE t.status = 'done' AND ${found})
      AND ${visibleChats(vis)}
    ORDER BY m.pk DESC LIMIT ${take}`;
}

/** A search page's rows, whole, by their keys. */
const resultRows = (pks: number[]) =>
  sql`SELECT ${RESULT_COLUMNS} FROM messages m ${CHAT_JOIN} ${TOPIC_JOIN} WHERE m.pk IN ${list(pks)}`;

const INDEX_RECHECK_MS = 60_000;
const searchIndexes = new WeakMap<Driver, { present: boolean; checkedAt: number }>();

/** Whether the full-text index exists; a missing one is looked for again a minute later. */
async function hasSearchIndex(driver: Driver): Promise<boolean> {
  const now = Date.now();
  const known = searchIndexes.get(driver);
  if (known && (known.present || now - known.checkedAt < INDEX_RECHECK_MS)) return known.present;
  const present = await driver.capabilities.hasFullTextIndex(driver);
  if (!present) driver.logger?.warn('full-text index missing: search falls back to substring matching');
  searchIndexes.set(driver, { present, checkedAt: now });
  return present;
}

export async function searchMessages(db: Driver, vis: Visibility, q: SearchQuery): Promise<SearchPage> {
  const indexAvailable = await hasSearchIndex(db);
  const words = searchWords(q.query);
  const indexed = indexAvailable && words.length > 0;
  const pattern = containsPattern(q.query);
  const take = q.offset + q.limit + 1;
  const where = [visibleChats(vis)];
  // Without the index, the same words are matched as a substring: the text, then a poll's question and options.
  if (!indexed) {
    const searched = sql`coalesce(m.text, '') || ' ' || coalesce(m.poll_text, '')`;
    where.push(sql`${db.capabilities.casefold(searched)} LIKE ${pattern} ESCAPE '\\'`);
  }
  const keys = async (query: Sql) => (await db.all(query)).map((row) => Number(row.pk));
  const inText = await keys(textMatchKeys(db, indexed ? words : null, where, vis, take));
  // The first `take` of the union are among the first `take` of each side; a message matching both
  // counts as a text match.
  const matchedIn = new Map<number, 'text' | 'transcript'>(inText.map((pk) => [pk, 'text']));
  if (q.includeTranscripts) {
    for (const pk of await keys(transcriptMatchKeys(db, indexed ? words : null, pattern, vis, take))) {
      if (!matchedIn.has(pk)) matchedIn.set(pk, 'transcript');
    }
  }
  const ordered = [...matchedIn.keys()].sort((a, b) => b - a);
  const page = ordered.slice(q.offset, q.offset + q.limit);
  const rows = page.length > 0 ? await db.all(resultRows(page)) : [];
  const byKey = new Map(rows.map((row) => [Number(row.pk), row]));
  return {
    results: page.flatMap((pk) => {
      const row = byKey.get(pk);
      return row ? [toSearchResult({ ...row, matched_in: matchedIn.get(pk) })] : [];
    }),
    hasMore: ordered.length > q.offset + q.limit,
    indexed,
  };
}

/** After a bulk write: the full-text index merged into as few parts as the backend keeps (see dialects.ts). */
export async function compactSearchIndex(db: Driver): Promise<void> {
  const statement = db.capabilities.compactFullTextIndex;
  if (statement && (await hasSearchIndex(db))) await db.run(statement);
}

const TAG_BATCH = 500;
const TAG_SLACK = 10;
const WORD_TAG = /^[\p{L}\p{N}_]+$/u;

export async function listTaggedMessages(db: Driver, vis: Visibility, q: TagQuery): Promise<TagPage> {
  const indexAvailable = await hasSearchIndex(db);
  const tag = parseTag(q.tag);
  if (!tag) throw new RangeError('not a #hashtag or $CASHTAG');
  const where: Sql[] = [
    visibleChats(vis),
    sql`${db.capabilities.casefold(sql`m.text`)} LIKE ${containsPattern(tag.needle)} ESCAPE '\\'`,
  ];
  if (q.scope === 'chat') {
    if (!q.chat) throw new RangeError('scope chat needs a chat');
    where.push(inChat(q.chat));
  } else if (q.scope === 'mine') {
    where.push(sql`m.is_outgoing = TRUE`);
  }
  let words = indexAvailable && tag.words.length > 0 ? tag.words : null;
  const tagIndex =
    indexAvailable && WORD_TAG.test(tag.body) ? db.capabilities.tagIndexMatch(tag.needle) : null;
  if (tagIndex) {
    where.push(tagIndex);
    words = null;
  }
  const need = q.offset + q.limit + 1;
  const matched: Row[] = [];
  let scanned = 0;
  let exhausted = false;
  while (matched.length < need && scanned < TAG_SCAN_CAP) {
    // Rows passing the LIKE nearly always carry the tag: ask for about as many as are still missing.
    const take = Math.min(TAG_BATCH, TAG_SCAN_CAP - scanned, need - matched.length + TAG_SLACK);
    const batch = await db.all(textMatches(db, words, false, where, sql`LIMIT ${take} OFFSET ${scanned}`));
    scanned += batch.length;
    for (const row of batch) if (textHasTag(str(row.text), tag)) matched.push(row);
    if (batch.length < take) {
      exhausted = true;
      break;
    }
  }
  return {
    results: matched.slice(q.offset, q.offset + q.limit).map(toSearchResult),
    hasMore: matched.length > q.offset + q.limit,
    truncated: !exhausted && matched.length < need,
  };
}
