/**
 * What SQLite and PostgreSQL do differently, as one object per backend (sqlite/capabilities.ts,
 * postgres/capabilities.ts) that the driver carries as `capabilities`. Query files ask it for SQL fragments
 * instead of testing which backend they run on, so a query is written once and a new difference is added
 * here and on both sides.
 */
import type { Queryable } from './driver';
import type { Sql } from './sql';

/** A full-text match over messages aliased `m`: what to select from, the condition and the order. */
export interface TextMatch {
  from: Sql;
  where: Sql;
  /** Newest first in archive order (the messages' pk). */
  newestFirst: Sql;
  /**
   * The same match read from the index alone, when its keys are the messages' pk: for a caller that needs
   * no message column (every chat visible), so no message row is read until the page is cut.
   */
  keysOnly: { from: Sql; key: Sql } | null;
}

export interface Introspection {
  hasTable(name: string): Promise<boolean>;
  hasColumn(table: string, column: string): Promise<boolean>;
}

/** What an in-chat search's substring index says of a needle (DialectCapabilities.substringCandidates). */
export type SubstringCandidates = { condition: Sql; exact: boolean } | 'none' | null;

export interface SubstringIndex {
  early: boolean;
  find(db: Queryable, needle: string, folded: Sql): Promise<SubstringCandidates>;
}

export interface DialectCapabilities {
  /** Unicode lower-casing of a text expression (SQLite's own lower() folds ASCII only). */
  casefold(expr: Sql): Sql;
  /**
   * Each search word as the index holds it, in the words' order: its forms (one, or on SQLite each token
   * the index's tokenizer makes of it). Asked only for words that are not plain ASCII letters and digits
   * (those are indexed lower-cased). The forms are what matchMessageText and matchTranscriptText are given.
   */
  indexedForms(db: Queryable, words: readonly string[]): Promise<string[][]>;
  /**
   * Where the message index keeps no prefix indexes: the words of the index that begin with `prefix`
   * (as the index holds it), as rows `{term}`, at most `limit` of them; null where the index matches
   * prefixes by itself. A search gives them to matchMessageText as `terms`.
   */
  prefixTerms: ((prefix: string, limit: number) => Sql) | null;
  /**
   * Statements, run in one transaction, that move the words written since into the list prefixTerms
   * reads (after a write of messages, and after a bulk load); null where there is no such list.
   */
  flushPrefixTerms: readonly Sql[] | null;
  /**
   * Messages whose text holds every word (whole words, or word prefixes with `prefix`). `terms`, where
   * given, holds for each word the index's words it begins (prefixTerms), or null to match it as a prefix.
   */
  matchMessageText(
    words: readonly string[],
    prefix: boolean,
    terms?: readonly (readonly string[] | null)[],
  ): TextMatch;
  /**
   * In-chat substring search through an index (migrations 009 and 010): `find` narrows the search for
   * `needle` (casefolded) in `folded` (the casefolded searched text of messages `m`) to a condition that
   * holds for every message holding it and for few others (`exact`: the condition is the search's own,
   * narrowed, and replaces it); 'none' when no message can hold it; null when the index cannot narrow it
   * (too short, too common). `early`: its answer is cheap enough to ask before the newest messages are
   * read (PostgreSQL's vocabulary of words); else it is asked only when they did not fill the page.
   */
  substringCandidates: SubstringIndex | null;
  /** A condition on media_transcripts aliased `t`: its text holds every word as a prefix. */
  matchTranscriptText(words: readonly string[]): Sql;
  /**
   * A condition on messages `m` using an index of the tags each message carries, or null when the
   * backend keeps no such index (the text match and the tag check in code then do the work).
   */
  tagIndexMatch(needle: string): Sql | null;
  /**
   * Merges the full-text index into as few parts as it can after a bulk write (the command-line loads), or
   * null where the backend keeps its index compact by itself.
   */
  compactFullTextIndex: readonly Sql[] | null;
  /**
   * Statements that open and close a bulk write's transaction (an import's chat) where the full-text
   * index writes faster with other settings for that long; null where nothing changes.
   */
  bulkWrite: { begin: Sql; end: Sql } | null;
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
