import { containsPattern, fts5PrefixQuery, fts5WordQuery, searchWords } from '../../domain/search';
import { parseTag, TAG_SCAN_CAP, textHasTag } from '../../domain/tags';
import type { Row } from '../driver';
import { str, toSearchResult } from '../rows';
import { join, raw, type Sql, sql } from '../sql';
import type { SearchPage, SearchQuery, TagPage, TagQuery, Visibility } from '../types';
import { CHAT_JOIN, casefold, type Db, inChat, RESULT_CHAT_COLUMNS, visibleChats } from './common';

const RESULT_COLUMNS = sql`m.pk, m.account_id, m.chat_id, m.id, m.date, m.text, m.sender_name, m.is_outgoing,
  m.is_deleted, ft.title AS topic_title, ${RESULT_CHAT_COLUMNS}`;

const TOPIC_JOIN = raw(`LEFT JOIN forum_topics ft ON c.is_forum = TRUE AND ft.account_id = m.account_id
  AND ft.chat_id = m.chat_id AND ft.id = m.reply_to_top_id`);

/** A tsquery requiring every word, normalised as the indexed texts are; `prefix` adds `:*`. */
function pgWords(words: readonly string[], prefix: boolean): Sql {
  const suffix = prefix ? ` || ':*'` : '';
  return join(
    words.map((w) => sql`to_tsquery('simple', quote_literal(trim(archive_fts_text(${w})))${raw(suffix)})`),
    ' && ',
  );
}

/**
 * Messages whose text matches, newest first in archive order (pk). On SQLite the full-text index is the
 * outer loop, walked by descending rowid (= pk), so a page costs the same for a common word as for a
 * rare one; without the index (or without words) a substring match walks the messages instead.
 */
function textMatches(db: Db, words: string[] | null, prefix: boolean, where: Sql[], tail: Sql): Sql {
  if (words && db.dialect === 'sqlite') {
    const query = prefix ? fts5PrefixQuery(words) : fts5WordQuery(words);
    return sql`SELECT ${RESULT_COLUMNS} FROM messages_fts f JOIN messages m ON m.pk = f.rowid ${CHAT_JOIN} ${TOPIC_JOIN}
      WHERE messages_fts MATCH ${query} AND ${join(where, ' AND ')} ORDER BY f.rowid DESC ${tail}`;
  }
  const match = words ? [sql`m.text_search @@ (${pgWords(words, prefix)})`] : [];
  return sql`SELECT ${RESULT_COLUMNS} FROM messages m ${CHAT_JOIN} ${TOPIC_JOIN}
    WHERE ${join([...match, ...where], ' AND ')} ORDER BY m.pk DESC ${tail}`;
}

function transcriptMatches(
  db: Db,
  words: string[] | null,
  pattern: string,
  vis: Visibility,
  take: number,
): Sql {
  const found =
    words === null
      ? sql`${casefold(db.dialect, sql`t.text`)} LIKE ${pattern} ESCAPE '\\'`
      : db.dialect === 'sqlite'
        ? sql`t.id IN (SELECT rowid FROM media_transcripts_fts
              WHERE media_transcripts_fts MATCH ${fts5PrefixQuery(words)})`
        : sql`t.text_search @@ (${pgWords(words, true)})`;
  return sql`SELECT ${RESULT_COLUMNS} FROM messages m ${CHAT_JOIN} ${TOPIC_JOIN}
    WHERE (m.account_id, m.chat_id, m.id) IN (
      SELECT md.account_id, md.chat_id, md.message_id FROM media_transcripts t
        JOIN media md ON md.account_id = t.account_id AND md.id = t.media_id
       WHERE t.status = 'done' AND ${found})
      AND ${visibleChats(vis)}
    ORDER BY m.pk DESC LIMIT ${take}`;
}

export async function searchMessages(
  db: Db,
  vis: Visibility,
  q: SearchQuery,
  indexAvailable: boolean,
): Promise<SearchPage> {
  const words = searchWords(q.query);
  const indexed = indexAvailable && words.length > 0;
  const pattern = containsPattern(q.query);
  const take = q.offset + q.limit + 1;
  const where = [visibleChats(vis)];
  if (!indexed) where.push(sql`${casefold(db.dialect, sql`m.text`)} LIKE ${pattern} ESCAPE '\\'`);
  const inText = await db.all(textMatches(db, indexed ? words : null, true, where, sql`LIMIT ${take}`));
  // The first `take` of the union are among the first `take` of each side; a message matching both
  // counts as a text match.
  const merged = new Map<number, Row>();
  for (const row of inText) merged.set(Number(row.pk), { ...row, matched_in: 'text' });
  if (q.includeTranscripts) {
    for (const row of await db.all(transcriptMatches(db, indexed ? words : null, pattern, vis, take))) {
      if (!merged.has(Number(row.pk))) merged.set(Number(row.pk), { ...row, matched_in: 'transcript' });
    }
  }
  const ordered = [...merged.values()].sort((a, b) => Number(b.pk) - Number(a.pk));
  return {
    results: ordered.slice(q.offset, q.offset + q.limit).map(toSearchResult),
    hasMore: ordered.length > q.offset + q.limit,
    indexed,
  };
}

const TAG_BATCH = 500;
const TAG_SLACK = 10;
const WORD_TAG = /^[\p{L}\p{N}_]+$/u;

export async function listTaggedMessages(
  db: Db,
  vis: Visibility,
  q: TagQuery,
  indexAvailable: boolean,
): Promise<TagPage> {
  const tag = parseTag(q.tag);
  if (!tag) throw new RangeError('not a #hashtag or $CASHTAG');
  const where: Sql[] = [
    visibleChats(vis),
    sql`${casefold(db.dialect, sql`m.text`)} LIKE ${containsPattern(tag.needle)} ESCAPE '\\'`,
  ];
  if (q.scope === 'chat') {
    if (!q.chat) throw new RangeError('scope chat needs a chat');
    where.push(inChat(q.chat));
  } else if (q.scope === 'mine') {
    where.push(sql`m.is_outgoing = TRUE`);
  }
  let words = indexAvailable && tag.words.length > 0 ? tag.words : null;
  if (indexAvailable && db.dialect === 'postgresql' && WORD_TAG.test(tag.body)) {
    // PostgreSQL keeps each message's tags in an indexed array (migration 003).
    where.push(sql`m.tags @> ARRAY[${tag.needle}]::text[]`);
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
