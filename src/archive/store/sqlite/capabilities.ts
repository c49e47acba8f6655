/** What the archive's queries write differently on SQLite (the capabilities of ../dialects.ts). */

import {
  fts5PrefixQuery,
  fts5Term,
  fts5WordQuery,
  needleTrigrams,
  pickTrigrams,
  trigramMatch,
} from '../../model/search';
import type { DialectCapabilities, Introspection, SubstringCandidates } from '../dialects';
import type { Queryable } from '../driver';
import { count, join, list, raw, type Sql, sql } from '../sql';

const FTS_MESSAGES = raw('messages_fts f JOIN messages m ON m.pk = f.rowid');

/** Each fold takes its own block of rowids in the connection's temporary table of words. */
let foldCalls = 0;
const FOLD_BLOCK = 64;

/**
 * Each word's tokens as FTS5's tokenizer makes them (lower-cased, diacritics removed, split where it
 * splits): the words are written into a temporary FTS5 table of the connection and its words read back,
 * each call under its own rowids, so searches that overlap do not see each other's words.
 */
async function foldWords(db: Queryable, words: readonly string[]): Promise<string[][]> {
  await db.run(sql`CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_words
    USING fts5(word, tokenize = 'unicode61 remove_diacritics 2')`);
  await db.run(sql`CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_word_tokens
    USING fts5vocab(temp, search_words, instance)`);
  const out: string[][] = words.map(() => []);
  for (let from = 0; from < words.length; from += FOLD_BLOCK) {
    const chunk = words.slice(from, from + FOLD_BLOCK);
    foldCalls = (foldCalls + 1) % 1_000_000_000;
    const base = foldCalls * FOLD_BLOCK;
    const last = base + FOLD_BLOCK - 1;
    await db.run(
      sql`INSERT INTO temp.search_words (rowid, word) VALUES ${join(chunk.map((w, i) => sql`(${base + i}, ${w})`))}`,
    );
    try {
      const tokens = await db.all<{ doc: number; term: string }>(sql`SELECT doc, term
        FROM temp.search_word_tokens WHERE doc BETWEEN ${base} AND ${last} ORDER BY doc, "offset"`);
      for (const t of tokens) out[from + Number(t.doc) - base]?.push(String(t.term));
    } finally {
      await db.run(sql`DELETE FROM temp.search_words WHERE rowid BETWEEN ${base} AND ${last}`);
    }
  }
  return out;
}

const substringMatch = (match: string) =>
  sql`m.pk IN (SELECT rowid FROM messages_substrings WHERE messages_substrings MATCH ${match})`;

/** The most trigrams a two-character needle is asked for as, and the share of the archive they may hold. */
const PAIR_TRIGRAMS = 64;
const PAIR_SHARE = 0.01;

/**
 * The messages holding a two-character needle, as the trigrams of the index that begin with it (read from
 * the index's own vocabulary, so a trigram written a moment ago is among them); null (read the chat) when
 * the counts say they are common or there are too many to ask for, and no message at all when the index
 * holds none.
 */
async function pairCandidates(db: Queryable, pair: string): Promise<SubstringCandidates> {
  // The last trigram beginning with the pair (U+10FFFF is the greatest code point, and sorts last in UTF-8).
  const end = `${pair}\u{10FFFF}`;
  const counted = await db.get<{ docs: number | null; total: number | null }>(sql`SELECT
      (SELECT sum(docs) FROM messages_substrings_counts WHERE term >= ${pair} AND term <= ${end}) AS docs,
      (SELECT docs FROM messages_substrings_counts WHERE term = '') AS total`);
  if (Number(counted?.docs ?? 0) > Number(counted?.total ?? 0) * PAIR_SHARE) return null;
  const terms = await db.all<{ term: string }>(sql`SELECT term FROM messages_substrings_vocabulary
    WHERE term >= ${pair} AND term <= ${end} LIMIT ${count(PAIR_TRIGRAMS + 1)}`);
  if (terms.length > PAIR_TRIGRAMS) return null;
  if (terms.length === 0) return 'none';
  return { condition: substringMatch(terms.map((t) => fts5Term(String(t.term))).join(' OR ')), exact: false };
}

export const SQLITE_CAPABILITIES: DialectCapabilities = Object.freeze({
  // A function the SQLite driver registers on each connection (see driver.ts).
  casefold: (expr: Sql) => sql`archive_casefold(${expr})`,
  indexedForms: foldWords,
  // The message index keeps no prefix indexes (migration 006): a prefix is spelled out as the words of
  // the index that begin with it, from the list of its words and from the words written since.
  prefixTerms: (prefix: string, limit: number) => {
    const end = `${prefix}\u{10FFFF}`;
    return sql`SELECT term FROM messages_fts_terms WHERE term >= ${prefix} AND term < ${end}
      UNION SELECT term FROM messages_fts_pending_terms WHERE term >= ${prefix} AND term < ${end}
      ORDER BY term LIMIT ${count(limit)}`;
  },
  flushPrefixTerms: [
    sql`INSERT OR IGNORE INTO messages_fts_terms (term) SELECT term FROM messages_fts_pending_terms`,
    sql`INSERT INTO messages_fts_pending (messages_fts_pending) VALUES ('delete-all')`,
  ],
  // The FTS5 table is the outer loop, walked by descending rowid (= pk), so a page costs the same for a
  // common word as for a rare one. A word whose list of index words is empty matches nothing.
  matchMessageText: (
    words: readonly string[],
    prefix: boolean,
    terms?: readonly (readonly string[] | null)[],
  ) => ({
    from: FTS_MESSAGES,
    where:
      words.length === 0 || terms?.some((list) => list?.length === 0)
        ? sql`FALSE`
        : sql`messages_fts MATCH ${prefix ? fts5PrefixQuery(words, terms) : fts5WordQuery(words)}`,
    newestFirst: sql`ORDER BY f.rowid DESC`,
    keysOnly: { from: raw('messages_fts f'), key: raw('f.rowid') },
  }),
  // The trigram index of migration 009, read as a set of rowids (= pk), asked for the needle's rarest
  // trigrams by the counts beside it; a two-character needle, for the index's trigrams that begin with it
  // (every text is indexed with a space after it, so each place the needle stands begins one).
  // It is asked only when the newest messages did not fill the page: a common word's page comes from them.
  substringCandidates: {
    early: false,
    find: async (db: Queryable, needle: string) => {
      const points = Array.from(needle);
      if (points.length === 2) return pairCandidates(db, needle);
      const trigrams = needleTrigrams(needle);
      if (trigrams === null) return null;
      const rows = await db.all<{ term: string; docs: number }>(
        sql`SELECT term, docs FROM messages_substrings_counts WHERE term IN ${list(['', ...trigrams])}`,
      );
      const docs = new Map(rows.map((r) => [String(r.term), Number(r.docs)]));
      const picked = pickTrigrams(
        trigrams.map((term) => ({ term, docs: docs.get(term) ?? null })),
        docs.get('') ?? 0,
      );
      return { condition: substringMatch(trigramMatch(picked)), exact: false };
    },
  },
  matchTranscriptText: (words: readonly string[]) =>
    sql`t.id IN (SELECT rowid FROM media_transcripts_fts WHERE media_transcripts_fts MATCH ${fts5PrefixQuery(words)})`,
  tagIndexMatch: () => null,
  // Rows added one by one leave the FTS5 index in many segments, each searched on every query; one
  // segment makes a common word's search about a fifth faster and the index a tenth smaller
  // (scripts/bench/README.md). Seconds per million messages, so only after the bulk commands; the
  // substring index likewise, and its trigrams counted again (migration 009).
  compactFullTextIndex: [
    sql`INSERT INTO messages_fts (messages_fts) VALUES ('optimize')`,
    sql`INSERT INTO messages_substrings (messages_substrings) VALUES ('optimize')`,
    sql`DELETE FROM messages_substrings_counts`,
    sql`INSERT INTO messages_substrings_counts (term, docs)
      SELECT term, doc FROM messages_substrings_vocabulary UNION ALL SELECT '', count(*) FROM messages`,
  ],
  // FTS5 merges its segments as rows arrive, four of a level into one of the next (automerge 4, its
  // default); sixteen at a time rewrites each entry fewer times: an import of 1,000,000 messages took
  // about a tenth less (scripts/bench/README.md). Set back at the end of the same transaction.
  bulkWrite: {
    begin: sql`INSERT INTO messages_fts (messages_fts, rank) VALUES ('automerge', 16)`,
    end: sql`INSERT INTO messages_fts (messages_fts, rank) VALUES ('automerge', 4)`,
  },
  hasFullTextIndex: async (db: Introspection) =>
    (await db.hasTable('messages_fts')) &&
    (await db.hasTable('messages_fts_terms')) &&
    (await db.hasTable('media_transcripts_fts')),
  afterExplicitId: () => null,
  writableColumns: (table: string) =>
    sql`SELECT name FROM pragma_table_xinfo(${table}) WHERE hidden = 0 ORDER BY cid`,
  jsonScalarField: (column: Sql, key: string) =>
    sql`json_valid(${column}) AND json_type(${column}, ${`$.${key}`}) IN ('integer', 'real', 'text')`,
  identityColumns: null,
  tableCatalog: {
    tables: sql`SELECT name, sql FROM sqlite_master
      WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY rowid`,
    primaryKey: (table: string) => sql`SELECT name FROM pragma_table_info(${table}) WHERE pk > 0 ORDER BY pk`,
  },
});
