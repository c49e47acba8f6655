/** What the archive's queries write differently on SQLite (the capabilities of ../dialects.ts). */

import { fts5PrefixQuery, fts5WordQuery } from '../../model/search';
import type { DialectCapabilities, Introspection } from '../dialects';
import { raw, type Sql, sql } from '../sql';

const FTS_MESSAGES = raw('messages_fts f JOIN messages m ON m.pk = f.rowid');

export const SQLITE_CAPABILITIES: DialectCapabilities = Object.freeze({
  // A function the SQLite driver registers on each connection (see driver.ts).
  casefold: (expr: Sql) => sql`archive_casefold(${expr})`,
  // FTS5 tokenizes the query with the index's own tokenizer.
  indexedForms: null,
  // The FTS5 table is the outer loop, walked by descending rowid (= pk), so a page costs the same for a
  // common word as for a rare one.
  matchMessageText: (words: readonly string[], prefix: boolean) => ({
    from: FTS_MESSAGES,
    where: sql`messages_fts MATCH ${prefix ? fts5PrefixQuery(words) : fts5WordQuery(words)}`,
    newestFirst: sql`ORDER BY f.rowid DESC`,
    keysOnly: { from: raw('messages_fts f'), key: raw('f.rowid') },
  }),
  matchTranscriptText: (words: readonly string[]) =>
    sql`t.id IN (SELECT rowid FROM media_transcripts_fts WHERE media_transcripts_fts MATCH ${fts5PrefixQuery(words)})`,
  tagIndexMatch: () => null,
  // Rows added one by one leave the FTS5 index in many segments, each searched on every query; one
  // segment makes a common word's search about a fifth faster and the index a tenth smaller
  // (scripts/bench/README.md). Seconds per million messages, so only after the bulk commands.
  compactFullTextIndex: sql`INSERT INTO messages_fts (messages_fts) VALUES ('optimize')`,
  // FTS5 merges its segments as rows arrive, four of a level into one of the next (automerge 4, its
  // default); sixteen at a time rewrites each entry fewer times: an import of 1,000,000 messages took
  // about a tenth less (scripts/bench/README.md). Set back at the end of the same transaction.
  bulkWrite: {
    begin: sql`INSERT INTO messages_fts (messages_fts, rank) VALUES ('automerge', 16)`,
    end: sql`INSERT INTO messages_fts (messages_fts, rank) VALUES ('automerge', 4)`,
  },
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
