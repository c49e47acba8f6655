/** What the archive's queries write differently on PostgreSQL (the capabilities of ../dialects.ts). */
import { containsPattern } from '../../model/search';
import type { DialectCapabilities, Introspection, SubstringCandidates } from '../dialects';
import type { Queryable } from '../driver';
import { join, prepared, raw, type Sql, sql } from '../sql';

/**
 * A tsquery requiring every word, each given as the index holds it (indexedForms), so the statement
 * carries constants the planner reads at once; `prefix` adds `:*`. A form is letters, digits and
 * spaces; it is quoted as one tsquery lexeme all the same.
 */
function tsWords(forms: readonly string[], prefix: boolean): Sql {
  const quoted = (form: string) =>
    `'${form.replaceAll('\\', '\\\\').replaceAll("'", "''")}'${prefix ? ':*' : ''}`;
  return join(
    forms.map((form) => sql`to_tsquery('simple', ${quoted(form)})`),
    ' && ',
  );
}

/** The most words a needle may stand in for the word index to be asked (more: pg_trgm's index answers). */
const NEEDLE_WORDS = 256;
/** What splits a text into words in archive_search_words (migration 010). */
const WORD_BREAK = /[ \t\n\r\f\v]/;

/**
 * In-chat search through the words of migration 010: a needle that holds no word break stands inside one
 * word, so a message holds it only if one of its words does. The vocabulary names those words ('' for the
 * words too long to index, when there are any); the messages holding one come from the word index, and
 * `strpos` checks each exactly (a LIKE would let the planner walk pg_trgm's index as well, reading every
 * trigram's list again).
 */
async function wordCandidates(db: Queryable, needle: string, folded: Sql): Promise<SubstringCandidates> {
  if (needle === '' || WORD_BREAK.test(needle)) return null;
  // Through the function of migration 011 (its one plan reads the trigram index), in a statement
  // prepared once per connection: planning it each time took twice its execution.
  const rows = await db.all<{ word: string }>(
    prepared(
      'archive_search_words_holding',
      sql`SELECT word FROM archive_search_words_holding(${containsPattern(needle)}, ${2 * NEEDLE_WORDS + 1}) AS word`,
    ),
  );
  const words = [...new Set(rows.map((r) => String(r.word)))];
  if (rows.length > 2 * NEEDLE_WORDS || words.length > NEEDLE_WORDS) return null;
  if (words.length === 0) return 'none';
  return {
    condition: sql`archive_search_words(${folded}) && ARRAY[${join(words.map((w) => sql`${w}`))}]::text[]
      AND strpos(${folded}, ${needle}) > 0`,
    exact: true,
  };
}

export const POSTGRES_CAPABILITIES: DialectCapabilities = Object.freeze({
  casefold: (expr: Sql) => sql`lower(${expr})`,
  // Normalised as the indexed texts are (003_full_text_search.sql), once per word (search.ts caches it).
  indexedForms: async (db: Queryable, words: readonly string[]) => {
    const rows = await db.all(
      sql`SELECT trim(archive_fts_text(w)) AS form FROM (VALUES ${join(words.map((w, n) => sql`(${w}::text, ${raw(String(n))})`))}) AS t(w, n) ORDER BY n`,
    );
    return words.map((_, i) => [String(rows[i]?.form ?? '')]);
  },
  // A GIN index over the tsvector matches a prefix (`:*`) by itself.
  prefixTerms: null,
  flushPrefixTerms: null,
  matchMessageText: (words: readonly string[], prefix: boolean) => ({
    from: raw('messages m'),
    where: sql`m.text_search @@ (${tsWords(words, prefix)})`,
    newestFirst: sql`ORDER BY m.pk DESC`,
    keysOnly: null,
  }),
  // The words of migration 010, asked first (one small index read); a needle they cannot narrow is left
  // to the planner, which answers the search's own LIKE from pg_trgm's index (009) or the chat's dates.
  substringCandidates: { early: true, find: wordCandidates },
  matchTranscriptText: (words: readonly string[]) => sql`t.text_search @@ (${tsWords(words, true)})`,
  // Each message's word-shaped tags are kept in an indexed array (migration 003).
  tagIndexMatch: (needle: string) => sql`m.tags @> ARRAY[${needle}]::text[]`,
  // The entries a bulk write left in the GIN indexes' pending lists (every search reads them whole) merged
  // into the indexes (migration 007). Only the indexes' owner may: a role that only writes the archive's
  // rows leaves them to the next merge (64 kB at most, or autovacuum's).
  compactFullTextIndex: [
    sql`SELECT coalesce(sum(gin_clean_pending_list(c.oid)), 0) AS pages FROM pg_class c
    WHERE c.relname IN ('idx_messages_text_search', 'idx_messages_tags', 'idx_messages_text_substrings',
        'idx_messages_search_words', 'idx_message_search_words_substrings')
      AND c.relnamespace = current_schema()::regnamespace AND pg_has_role(c.relowner, 'USAGE')`,
  ],
  bulkWrite: null,
  hasFullTextIndex: async (db: Introspection) =>
    (await db.hasColumn('messages', 'text_search')) &&
    (await db.hasColumn('messages', 'tags')) &&
    (await db.hasColumn('media_transcripts', 'text_search')),
  // An explicit id does not move the identity sequence; keep it past every id in use.
  afterExplicitId: (table: 'accounts') =>
    sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), (SELECT max(id) FROM ${raw(table)}))`,
  writableColumns: (table: string) => sql`SELECT column_name AS name FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ${table} AND is_generated = 'NEVER'
    ORDER BY ordinal_position`,
  jsonScalarField: (column: Sql, key: string) =>
    sql`jsonb_typeof(${column}) = 'object' AND jsonb_typeof(${column} -> ${key}) IN ('number', 'string')`,
  identityColumns: sql`SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND is_identity = 'YES'`,
  tableCatalog: null,
});
