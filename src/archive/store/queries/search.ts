import { containsPattern, searchWords } from '../../model/search';
import { parseTag, TAG_SCAN_CAP, textHasTag } from '../../model/tags';
import type { Driver, Queryable, Row } from '../driver';
import { str, toSearchResult } from '../rows';
import { count, join, raw, type Sql, sql } from '../sql';
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
 * The chats a restricted caller sees, as literal keys: the planner then meets them as constants (an
 * index range per chat) rather than as a join it can only guess the size of. Null when every chat is
 * visible.
 */
async function visibleChatKeys(db: Driver, vis: Visibility): Promise<Sql | null> {
  if (!isRestricted(vis)) return null;
  const chats = await db.all(sql`SELECT c.account_id, c.id FROM chats c WHERE ${visibleChats(vis)}`);
  if (chats.length === 0) return sql`FALSE`;
  // Written into the statement as integers (checked as such), so the plan is made for these chats.
  const integer = (value: unknown) => {
    const text = String(value);
    if (!/^-?\d{1,19}$/.test(text)) throw new Error(`not an integer chat key: ${text}`);
    return raw(text);
  };
  const keys = chats.map((c) => sql`(${integer(c.account_id)}, ${integer(c.id)})`);
  return sql`(m.account_id, m.chat_id) IN (VALUES ${join(keys)})`;
}

/**
 * The archive-order keys (pk) of the messages whose text matches, newest first, `limit` of them after
 * the first `offset`: a search page is cut by key, and only its own rows are read whole (searchMessages).
 * `inChats` limits the messages to the visible chats (null: all).
 */
function textMatchKeys(
  db: Db,
  words: string[] | null,
  terms: (string[] | null)[] | undefined,
  where: Sql[],
  inChats: Sql | null,
  limit: number,
  offset = 0,
): Sql {
  const conditions = inChats ? [...where, inChats] : where;
  const page = sql`LIMIT ${count(limit)} OFFSET ${count(offset)}`;
  if (words) {
    const match = db.capabilities.matchMessageText(words, true, terms);
    if (match.keysOnly && conditions.length === 0)
      return sql`SELECT ${match.keysOnly.key} AS pk FROM ${match.keysOnly.from}
        WHERE ${match.where} ${match.newestFirst} ${page}`;
    return sql`SELECT m.pk FROM ${match.from}
      WHERE ${join([match.where, ...conditions], ' AND ')} ${match.newestFirst} ${page}`;
  }
  return sql`SELECT m.pk FROM messages m WHERE ${join(conditions, ' AND ')} ORDER BY m.pk DESC ${page}`;
}

/** The same keys for messages whose media's transcript matches. */
function transcriptMatchKeys(
  db: Db,
  words: string[] | null,
  pattern: string,
  inChats: Sql | null,
  take: number,
): Sql {
  const found =
    words === null
      ? sql`${db.capabilities.casefold(sql`t.text`)} LIKE ${pattern} ESCAPE '\\'`
      : db.capabilities.matchTranscriptText(words);
  return sql`SELECT m.pk FROM messages m
    WHERE (m.account_id, m.chat_id, m.id) IN (
      SELECT md.account_id, md.chat_id, md.message_id FROM media_transcripts t
        JOIN media md ON md.account_id = t.account_id AND md.id = t.media_id
       WHERE t.status = 'done' AND ${found})
      AND ${inChats ?? sql`TRUE`}
    ORDER BY m.pk DESC LIMIT ${count(take)}`;
}

const FORMS_KEPT = 10_000;
/** Per database: the normalisation depends on its extensions (unaccent, where installed). */
const formsByDriver = new WeakMap<Driver, Map<string, string[]>>();
const ASCII_WORD = /^[A-Za-z0-9]+$/;

/**
 * The words as the full-text index holds them (dialects.ts, indexedForms), each word's forms in its
 * place: looked up once per word, since the normalisation is a pure function, and given to the statement
 * as constants. Letters and digits of ASCII alone are indexed lower-cased on both backends.
 */
async function indexWords(db: Driver, words: string[]): Promise<string[]> {
  const known = formsByDriver.get(db) ?? new Map<string, string[]>();
  formsByDriver.set(db, known);
  const missing = [...new Set(words.filter((w) => !ASCII_WORD.test(w) && !known.has(w)))];
  if (missing.length > 0) {
    const forms = await db.capabilities.indexedForms(db, missing);
    if (known.size + missing.length > FORMS_KEPT) known.clear();
    missing.forEach((w, i) => {
      known.set(w, forms[i] ?? []);
    });
  }
  return words.flatMap((w) => (ASCII_WORD.test(w) ? [w.toLowerCase()] : (known.get(w) ?? [])));
}

/**
 * The index words a search spells its prefixes out as, at most this many over all its words: a word that
 * would take more than are left is matched as a prefix by the index itself.
 */
export const PREFIX_TERMS_MAX = 5_000;

/**
 * Where the message index keeps no prefix indexes (dialects.ts, prefixTerms): each word's index words,
 * or null for a word matched as a prefix (PREFIX_TERMS_MAX). Undefined where the index matches prefixes
 * by itself.
 */
async function prefixTerms(db: Driver, words: string[]): Promise<(string[] | null)[] | undefined> {
  const statement = db.capabilities.prefixTerms;
  if (!statement) return undefined;
  let left = PREFIX_TERMS_MAX;
  const out: (string[] | null)[] = [];
  for (const w of words) {
    const rows = await db.all<{ term: string }>(statement(w, left + 1));
    if (rows.length > left) {
      out.push(null);
    } else {
      out.push(rows.map((r) => String(r.term)));
      left -= rows.length;
    }
  }
  return out;
}

/** Moves the words written since into the list prefixTerms reads, inside the caller's transaction. */
export async function flushPrefixTerms(tx: Queryable): Promise<void> {
  for (const statement of tx.capabilities.flushPrefixTerms ?? []) await tx.run(statement);
}

/** Whether any transcript is done (an index of done transcripts answers it). */
async function hasDoneTranscript(db: Driver): Promise<boolean> {
  return (
    (await db.get(sql`SELECT 1 AS found FROM media_transcripts WHERE status = 'done' LIMIT 1`)) !== undefined
  );
}

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
  const typed = searchWords(q.query);
  const indexed = indexAvailable && typed.length > 0;
  const words = indexed ? await indexWords(db, typed) : typed;
  const terms = indexed ? await prefixTerms(db, words) : undefined;
  const pattern = containsPattern(q.query);
  const take = q.offset + q.limit + 1;
  const inChats = await visibleChatKeys(db, vis);
  const where: Sql[] = [];
  // Without the index, the same words are matched as a substring: the text, then a poll's question and options.
  if (!indexed) {
    const searched = sql`coalesce(m.text, '') || ' ' || coalesce(m.poll_text, '')`;
    // A query without letters (an emoji, punctuation) reads the same in any case, and lower-casing adds
    // no such character to a text (but U+0307, after "İ"): the texts are matched as they are, without
    // lower-casing each first (SQLite calls a function per message for that: 3.9 s against 0.23 s over
    // 1,000,000 messages for an emoji).
    const caseless = !/\p{L}|\u0307/u.test(q.query);
    where.push(sql`${caseless ? searched : db.capabilities.casefold(searched)} LIKE ${pattern} ESCAPE '\\'`);
  }
  // The transcripts are searched only where a transcript is done (most archives have none): the
  // union of two sides costs PostgreSQL about 0.4 ms more planning than the text side alone.
  const transcripts = q.includeTranscripts && (await hasDoneTranscript(db));
  const textKeys = (limit: number, offset: number) =>
    textMatchKeys(db, indexed ? words : null, terms, where, inChats, limit, offset);
  let page: Sql;
  if (transcripts) {
    // The first `take` keys of each side (a page of the union is among them), a message matching both
    // counted as a text match, the page cut by key.
    page = sql`text_keys AS (${textKeys(take, 0)}),
      transcript_keys AS (${transcriptMatchKeys(db, indexed ? words : null, pattern, inChats, take)}),
      matched AS (SELECT pk, min(side) AS side FROM (SELECT pk, 0 AS side FROM text_keys
        UNION ALL SELECT pk, 1 AS side FROM transcript_keys) u GROUP BY pk),
      page AS (SELECT pk, side FROM matched ORDER BY pk DESC LIMIT ${count(q.limit + 1)} OFFSET ${count(q.offset)})`;
  } else {
    page = sql`page AS (SELECT pk, 0 AS side FROM (${textKeys(q.limit + 1, q.offset)}) k)`;
  }
  // One statement: the page's keys, then only its rows read whole. One more row than the page says
  // whether another follows.
  const rows = await db.all(sql`WITH ${page}
    SELECT ${RESULT_COLUMNS}, page.side AS matched_side
      FROM page JOIN messages m ON m.pk = page.pk ${CHAT_JOIN} ${TOPIC_JOIN}
     ORDER BY m.pk DESC`);
  return {
    results: rows
      .slice(0, q.limit)
      .map((row) =>
        toSearchResult({ ...row, matched_in: Number(row.matched_side) === 1 ? 'transcript' : 'text' }),
      ),
    hasMore: rows.length > q.limit,
    indexed,
  };
}

/**
 * After a bulk write: the full-text index merged into as few parts as the backend keeps, and the words
 * written since moved into the list of the index's words (see dialects.ts).
 */
export async function compactSearchIndex(db: Driver): Promise<void> {
  const statements = db.capabilities.compactFullTextIndex;
  if (!(await hasSearchIndex(db))) return;
  if (statements) {
    await db.transaction(async (tx) => {
      for (const statement of statements) await tx.run(statement);
    });
  }
  if (db.capabilities.flushPrefixTerms) await db.transaction(flushPrefixTerms);
}

const TAG_BATCH = 500;
const TAG_SLACK = 10;
const WORD_TAG = /^[\p{L}\p{N}_]+$/u;

export async function listTaggedMessages(db: Driver, vis: Visibility, q: TagQuery): Promise<TagPage> {
  const indexAvailable = await hasSearchIndex(db);
  const tag = parseTag(q.tag);
  if (!tag) throw new RangeError('not a #hashtag or $CASHTAG');
  const where: Sql[] = [visibleChats(vis)];
  if (q.scope === 'chat') {
    if (!q.chat) throw new RangeError('scope chat needs a chat');
    where.push(inChat(q.chat));
  } else if (q.scope === 'mine') {
    where.push(sql`m.is_outgoing = TRUE`);
  }
  let words = indexAvailable && tag.words.length > 0 ? await indexWords(db, tag.words) : null;
  const tagIndex =
    indexAvailable && WORD_TAG.test(tag.body) ? db.capabilities.tagIndexMatch(tag.needle) : null;
  if (tagIndex) {
    // The index's array holds the text's tags lower-cased, so it implies the substring: without the
    // LIKE beside it, the planner estimates the tag's messages from the array's statistics (30,000 of
    // 10,000,000, a walk newest first: 10 ms) instead of guessing a handful (a sort of all: 240-700 ms).
    where.push(tagIndex);
    words = null;
  } else {
    where.push(sql`${db.capabilities.casefold(sql`m.text`)} LIKE ${containsPattern(tag.needle)} ESCAPE '\\'`);
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
