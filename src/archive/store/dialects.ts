/**
 * What SQLite and PostgreSQL do differently, in one object per backend that the driver carries as
 * `capabilities`. Query files ask it for SQL fragments instead of testing which backend they run on, so
 * a query is written once and a new difference is added here, on both sides.
 */
import { fts5PrefixQuery, fts5WordQuery } from '../model/search';
import { join, raw, type Sql, sql } from './sql';

/** A full-text match over messages aliased `m`: what to select from, the condition and the order. */
export interface TextMatch {
  from: Sql;
  where: Sql;
  /** Newest first in archive order (the messages' pk). */
  newestFirst: Sql;
}

export interface Introspection {
  hasTable(name: string): Promise<boolean>;
  hasColumn(table: string, column: string): Promise<boolean>;
}

export interface DialectCapabilities {
  /** Unicode lower-casing of a text expression (SQLite's own lower() folds ASCII only). */
  casefold(expr: Sql): Sql;
  /** Messages whose text holds every word (whole words, or word prefixes with `prefix`). */
  matchMessageText(words: readonly string[], prefix: boolean): TextMatch;
  /** A condition on media_transcripts aliased `t`: its text holds every word as a prefix. */
  matchTranscriptText(words: readonly string[]): Sql;
  /**
   * A condition on messages `m` using an index of the tags each message carries, or null when the
   * backend keeps no such index (the text match and the tag check in code then do the work).
   */
  tagIndexMatch(needle: string): Sql | null;
  /** Whether the full-text index of migration 003 (SQLite FTS5 tables, PostgreSQL tsvector columns) exists. */
  hasFullTextIndex(db: Introspection): Promise<boolean>;
  /**
   * A statement to run after inserting a row with an explicit id into a table with a generated id, so
   * the next generated id does not collide; null when the backend needs none.
   */
  afterExplicitId(table: 'accounts'): Sql | null;
  /** The columns a row of `table` can be written with (no generated ones), in table order, as rows `{name}`. */
  writableColumns(table: string): Sql;
  /** A condition: the JSON `column` holds an object whose `key` is a number or a text. */
  jsonScalarField(column: Sql, key: string): Sql;
  /**
   * Rows `{table_name, column_name}` of every identity column, whose sequence must move past ids copied
   * in; null when the backend has no sequences (SQLite takes the next id from the rows themselves).
   */
  identityColumns: Sql | null;
  /**
   * The archive's own tables in creation (foreign-key) order, as rows `{name, sql}` (the creating
   * statement, or null), and the rows `{name}` of a table's primary-key columns in key order; null
   * where the tables are not listed this way (only a SQLite archive is copied from).
   */
  tableCatalog: { tables: Sql; primaryKey(table: string): Sql } | null;
}

const FTS_MESSAGES = raw('messages_fts f JOIN messages m ON m.pk = f.rowid');

export const SQLITE_CAPABILITIES: DialectCapabilities = Object.freeze({
  // A function the SQLite driver registers on each connection (see sqlite.ts).
  casefold: (expr: Sql) => sql`archive_casefold(${expr})`,
  // The FTS5 table is the outer loop, walked by descending rowid (= pk), so a page costs the same for a
  // common word as for a rare one.
  matchMessageText: (words: readonly string[], prefix: boolean) => ({
    from: FTS_MESSAGES,
    where: sql`messages_fts MATCH ${prefix ? fts5PrefixQuery(words) : fts5WordQuery(words)}`,
    newestFirst: sql`ORDER BY f.rowid DESC`,
  }),
  matchTranscriptText: (words: readonly string[]) =>
    sql`t.id IN (SELECT rowid FROM media_transcripts_fts WHERE media_transcripts_fts MATCH ${fts5PrefixQuery(words)})`,
  tagIndexMatch: () => null,
  hasFullTextIndex: async (db: Introspection) =>
    (await db.hasTable('messages_fts')) && (await db.hasTable('media_transcripts_fts')),
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

/** A tsquery requiring every word, normalised as the indexed texts are; `prefix` adds `:*`. */
function tsWords(words: readonly string[], prefix: boolean): Sql {
  const suffix = prefix ? ` || ':*'` : '';
  return join(
    words.map((w) => sql`to_tsquery('simple', quote_literal(trim(archive_fts_text(${w})))${raw(suffix)})`),
    ' && ',
  );
}

export const POSTGRES_CAPABILITIES: DialectCapabilities = Object.freeze({
  casefold: (expr: Sql) => sql`lower(${expr})`,
  matchMessageText: (words: readonly string[], prefix: boolean) => ({
    from: raw('messages m'),
    where: sql`m.text_search @@ (${tsWords(words, prefix)})`,
    newestFirst: sql`ORDER BY m.pk DESC`,
  }),
  matchTranscriptText: (words: readonly string[]) => sql`t.text_search @@ (${tsWords(words, true)})`,
  // Each message's word-shaped tags are kept in an indexed array (migration 003).
  tagIndexMatch: (needle: string) => sql`m.tags @> ARRAY[${needle}]::text[]`,
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
