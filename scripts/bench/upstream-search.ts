// The upstream viewer's global message search, re-expressed from its documented behaviour
// (../shared/reference/archive-upstream.md, "Full-text search") so the archive benchmark can time it beside
// ours on the same data and driver. Not used by the service.
//
// - The input is split into `\w+` words and every word is a required prefix: FTS5 `"w1"* "w2"*`,
//   PostgreSQL `to_tsquery('simple', 'w1:* & w2:*')`.
// - SQLite: an FTS5 table over the messages' own dense rowids (`content_rowid='rowid'`), no prefix indexes,
//   `unicode61 remove_diacritics 2`. Our messages table's rowid is its archive order (pk), so the upstream
//   shape is rebuilt once beside it: `upstream_messages` holds the columns a result shows, inserted chat by
//   chat as a backup writes them, and `upstream_messages_fts` indexes it.
// - PostgreSQL: the upstream's `text_search` is a stored tsvector with a GIN index, as ours is; its
//   statement runs against our column.
// - The visible matches are sorted newest first by date, then cut with LIMIT/OFFSET; a restricted viewer
//   adds `chat_id IN (…)`.
import type { Driver } from '../../src/archive/store/driver';
import { join, list, raw, type Sql, sql } from '../../src/archive/store/sql';

const WORD = /\w+/gu;

export const upstreamWords = (query: string) => query.match(WORD) ?? [];

/** Builds the upstream's SQLite table and index beside ours, once (kept with `--reuse`). */
export async function prepareUpstream(driver: Driver): Promise<void> {
  if (driver.dialect !== 'sqlite') return;
  if (await driver.hasTable('upstream_messages_fts')) return;
  const started = Date.now();
  await driver.exec(`
    CREATE TABLE upstream_messages (
      id INTEGER NOT NULL, chat_id INTEGER NOT NULL, account_id INTEGER NOT NULL, date TEXT NOT NULL,
      text TEXT, sender_id INTEGER, sender_name TEXT, is_outgoing INTEGER, reply_to_top_id INTEGER,
      PRIMARY KEY (account_id, chat_id, id));
    INSERT INTO upstream_messages
      SELECT id, chat_id, account_id, date, text, sender_id, sender_name, is_outgoing, reply_to_top_id
        FROM messages ORDER BY account_id, chat_id, id;
    CREATE INDEX upstream_messages_chat_date ON upstream_messages (chat_id, date DESC);
    CREATE VIRTUAL TABLE upstream_messages_fts USING fts5(text, content='upstream_messages',
      content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
    INSERT INTO upstream_messages_fts (upstream_messages_fts) VALUES ('rebuild');
    ANALYZE;`);
  process.stderr.write(
    `  built the upstream's search table in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
}

function match(driver: Driver, words: string[]): { from: Sql; where: Sql } {
  if (driver.dialect === 'sqlite') {
    const fts = words.map((w) => `"${w.replaceAll('"', '""')}"*`).join(' ');
    return {
      from: raw('upstream_messages m JOIN upstream_messages_fts f ON f.rowid = m.rowid'),
      where: sql`upstream_messages_fts MATCH ${fts}`,
    };
  }
  const ts = words.map((w) => `'${w.replaceAll("'", "''").replaceAll('\\', '\\\\')}':*`).join(' & ');
  return { from: raw('messages m'), where: sql`m.text_search @@ to_tsquery('simple', ${ts})` };
}

/** One page of the upstream's search: the ids of the messages shown, in its order. */
export async function upstreamSearch(
  driver: Driver,
  visibleChatIds: number[] | null,
  query: string,
  limit: number,
  offset: number,
): Promise<{ chatId: number; id: number }[]> {
  const words = upstreamWords(query);
  const m = match(driver, words);
  const where = [m.where];
  if (visibleChatIds) where.push(sql`m.chat_id IN ${list(visibleChatIds)}`);
  const rows = await driver.all(sql`SELECT m.id, m.chat_id, m.date, m.text, m.sender_id, m.sender_name,
      m.is_outgoing, m.reply_to_top_id, c.title, c.type, c.username, c.first_name, c.last_name
    FROM ${m.from} JOIN chats c ON c.account_id = m.account_id AND c.id = m.chat_id
    WHERE ${join(where, ' AND ')} ORDER BY m.date DESC, m.id DESC LIMIT ${limit} OFFSET ${offset}`);
  return rows.map((r) => ({ chatId: Number(r.chat_id), id: Number(r.id) }));
}

/**
 * The least any statement over PostgreSQL's GIN index can do for a page of every chat: the keys of the
 * page's matches alone (no row read, no chat joined), newest first. A GIN index gives no order and no
 * pk, so this still visits the heap row of every match; upstream / this is the most a search through the
 * index could reach. Null on SQLite (its full-text table gives the keys in order by itself).
 */
export async function fullTextKeysAlone(
  driver: Driver,
  query: string,
  limit: number,
  offset: number,
): Promise<number[] | null> {
  if (driver.dialect === 'sqlite') return null;
  const m = match(driver, upstreamWords(query));
  const rows = await driver.all(sql`SELECT m.pk FROM ${m.from} WHERE ${m.where}
    ORDER BY m.pk DESC LIMIT ${limit + 1} OFFSET ${offset}`);
  return rows.map((r) => Number(r.pk));
}

/** The upstream's SQLite index beside ours: bytes of each full-text table (dbstat). */
export async function fullTextSizes(driver: Driver): Promise<{ ours: number; upstream: number } | null> {
  if (driver.dialect !== 'sqlite') return null;
  const size = async (prefix: string) =>
    Number(
      (
        await driver.all(
          sql`SELECT sum(pgsize) AS bytes FROM dbstat WHERE name LIKE ${`${prefix}\\_%`} ESCAPE '\\'`,
        )
      )[0]?.bytes ?? 0,
    );
  return { ours: await size('messages_fts'), upstream: await size('upstream_messages_fts') };
}
