// In-chat substring search (`GET /api/chats/{ref}/messages?search=`) against the upstream viewer's statement
// for that route, re-expressed from its documented behaviour (../shared/reference/archive-upstream.md): the
// chat's messages whose text matches `ILIKE '%text%'`, newest first, a page cut by LIMIT/OFFSET. SQLAlchemy
// spells ILIKE on SQLite as `lower(text) LIKE lower(?)`, read here from the upstream's own table (built by
// upstream-search.ts: its columns, its (chat_id, date) index); on PostgreSQL it is `text ILIKE ?` on our
// table, with the trigram index the upstream keeps on `text` (its migration 023) built beside ours once.
// Not used by the service.
import type { ArchiveSqlStore } from '../../src/archive/store/archive-store';
import type { Driver } from '../../src/archive/store/driver';
import { join, raw, sql } from '../../src/archive/store/sql';
import type { ArchiveDatabase, ChatKey } from '../../src/archive/store/store';
import { prepareUpstream } from './upstream-search';

export interface InChatRow {
  name: string;
  hits: number;
  upstream: number;
  ours: number;
  samePage: boolean;
}

/** The upstream's trigram index on PostgreSQL (migration 023 there), once. */
async function prepareUpstreamTrigrams(driver: Driver): Promise<void> {
  if (driver.dialect !== 'postgresql') return;
  const started = Date.now();
  await driver.run(sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
  const made = await driver.get(
    sql`SELECT 1 AS found FROM pg_class WHERE relname = 'upstream_messages_text_trgm'`,
  );
  if (made) {
    // The write-cost runs of an earlier benchmark (rolled back) left entries in the GIN indexes' pending
    // lists, which every search then reads whole, and dead words in the vocabulary: both sides are timed
    // with the lists merged and the vocabulary vacuumed (an absent word had taken 3 ms on ours, 0.9 on
    // the upstream's, at 10,000,000 messages).
    for (const index of [
      'upstream_messages_text_trgm',
      'idx_messages_text_substrings',
      'idx_messages_search_words',
      'idx_message_search_words_substrings',
    ]) {
      await driver.get(sql`SELECT gin_clean_pending_list(${index}::regclass) AS merged`);
    }
    await driver.run(sql`VACUUM (ANALYZE) message_search_words`);
    return;
  }
  await driver.run(sql`CREATE INDEX upstream_messages_text_trgm ON messages USING GIN (text gin_trgm_ops)`);
  await driver.run(sql`ANALYZE messages`);
  process.stderr.write(
    `  built the upstream's trigram index in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
}

/** One page of the upstream's in-chat search: the ids shown, in its order. */
async function upstreamInChat(driver: Driver, chat: ChatKey, text: string, limit: number, offset: number) {
  const pattern = `%${text}%`;
  const rows =
    driver.dialect === 'sqlite'
      ? await driver.all(sql`SELECT * FROM upstream_messages
          WHERE chat_id = ${chat.chatId} AND lower(text) LIKE lower(${pattern})
          ORDER BY date DESC LIMIT ${limit} OFFSET ${offset}`)
      : await driver.all(sql`SELECT * FROM messages
          WHERE chat_id = ${chat.chatId} AND text ILIKE ${pattern}
          ORDER BY date DESC LIMIT ${limit} OFFSET ${offset}`);
  return rows.map((r) => Number(r.id));
}

/** How many messages of the chat hold `text` (the upstream's condition, counted once per shape). */
async function hitsOf(driver: Driver, chat: ChatKey, text: string): Promise<number> {
  const table = raw(driver.dialect === 'sqlite' ? 'upstream_messages' : 'messages');
  const row = await driver.get(
    sql`SELECT count(*) AS n FROM ${table} WHERE chat_id = ${chat.chatId} AND lower(text) LIKE ${`%${text.toLowerCase()}%`}`,
  );
  return Number(row?.n ?? 0);
}

/** The substring indexes' size on disk, in bytes (PostgreSQL: the trigrams, the words and their vocabulary). */
export async function substringIndexBytes(driver: Driver): Promise<number> {
  const row =
    driver.dialect === 'sqlite'
      ? await driver.get(sql`SELECT sum(pgsize) AS n FROM dbstat WHERE name LIKE 'messages_substrings%'`)
      : await driver.get(sql`SELECT pg_relation_size('idx_messages_text_substrings')
          + pg_relation_size('idx_messages_search_words') + pg_total_relation_size('message_search_words') AS n`);
  return Number(row?.n ?? 0);
}

/**
 * The substring indexes' write cost: 20,000 new messages inserted with and without them (alternated, each in a
 * transaction rolled back, the index's triggers or index dropped inside it), ms per 1,000 messages.
 */
export async function substringWriteCost(
  driver: Driver,
  big: ChatKey,
): Promise<{ with: number; without: number }> {
  const rows = Array.from(
    { length: 20_000 },
    (_, i) =>
      sql`(${4_000_000_000 + i}, ${big.accountId}, ${big.chatId}, ${900_000_000 + i}, ${new Date(Date.UTC(2027, 0, 1) + i * 1000).toISOString()}, ${`written to time the index ${i} with coffee and words`}, 1, 'Bench User')`,
  );
  const off =
    driver.dialect === 'sqlite'
      ? [
          sql`DROP TRIGGER messages_substrings_ai`,
          sql`DROP TRIGGER messages_substrings_ad`,
          sql`DROP TRIGGER messages_substrings_au`,
        ]
      : [
          sql`DROP INDEX idx_messages_text_substrings`,
          sql`DROP INDEX idx_messages_search_words`,
          sql`DROP TRIGGER messages_search_words_ai ON messages`,
          sql`DROP TRIGGER messages_search_words_au ON messages`,
        ];
  const times = { with: [] as number[], without: [] as number[] };
  const rolledBack = new Error('rolled back');
  for (let run = 0; run < 6; run++) {
    const indexed = run % 2 === 0;
    await driver
      .transaction(async (tx) => {
        if (!indexed) for (const statement of off) await tx.run(statement);
        const t0 = performance.now();
        for (let i = 0; i < rows.length; i += 500) {
          await tx.run(sql`INSERT INTO messages (pk, account_id, chat_id, id, date, text, sender_id, sender_name)
            VALUES ${join(rows.slice(i, i + 500))}`);
        }
        (indexed ? times.with : times.without).push(((performance.now() - t0) / rows.length) * 1000);
        throw rolledBack;
      })
      .catch((error) => {
        if (error !== rolledBack) throw error;
      });
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;
  return { with: median(times.with), without: median(times.without) };
}

/** How long each shape's two sides run, alternated, before they are timed. */
const WARM_UP_MS = 3000;

/**
 * The shapes of the route in the big chat: ours (the store call, as the route makes it) against the
 * upstream's statement, alternated run by run, p50 of `runs`.
 */
export async function compareInChat(
  db: ArchiveDatabase,
  big: ChatKey,
  rareWords: string[],
  runs: number,
  only = '',
): Promise<InChatRow[]> {
  const driver = (db as ArchiveSqlStore).driver;
  await prepareUpstream(driver);
  await prepareUpstreamTrigrams(driver);
  const rare = rareWords[0] ?? 'kalomi7';
  const shapes = [
    { name: `rare word (${rare})`, text: rare, offset: 0 },
    { name: 'absent word (zanzibar)', text: 'zanzibar', offset: 0 },
    { name: 'short word (lun)', text: 'lun', offset: 0 },
    { name: 'two letters (ka)', text: 'ka', offset: 0 },
    { name: 'common word (coffee)', text: 'coffee', offset: 0 },
    { name: 'common word (coffee), offset 1000', text: 'coffee', offset: 1000 },
    { name: 'absent two letters (qx)', text: 'qx', offset: 0 },
    { name: 'two rare characters ($b)', text: '$b', offset: 0 },
  ];
  const rows: InChatRow[] = [];
  for (const shape of shapes.filter((s) => s.name.includes(only))) {
    const ours = async () =>
      (
        await db.listMessages(big, {
          limit: 50,
          offset: shape.offset,
          search: shape.text,
          withTranscripts: false,
        })
      ).map((m) => m.id);
    const theirs = () => upstreamInChat(driver, big, shape.text, 50, shape.offset);
    const [mine, upstream] = [await ours(), await theirs()];
    const samePage = mine.length === upstream.length && mine.every((id, i) => id === upstream[i]);
    // Not timed: at least two runs of each side and at least WARM_UP_MS of them, so that a shape of a
    // fraction of a millisecond is timed as a long-running server answers it (V8 has compiled the path,
    // PostgreSQL has settled its plans), not in a process's first few hundred runs: the absent word's
    // first 1,000 alternated runs gave 0.45 / 0.25 ms at 10,000,000 messages, the next 1,000 0.34 / 0.17.
    const warming = performance.now();
    for (let i = 0; i < 2 || performance.now() - warming < WARM_UP_MS; i++) {
      await ours();
      await theirs();
    }
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < runs; i++) {
      const order: [number[], () => Promise<unknown>][] =
        i % 2 === 0
          ? [
              [a, ours],
              [b, theirs],
            ]
          : [
              [b, theirs],
              [a, ours],
            ];
      for (const [samples, fn] of order) {
        const t0 = performance.now();
        await fn();
        samples.push(performance.now() - t0);
      }
    }
    const p50 = (list: number[]) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)] ?? 0;
    rows.push({
      name: shape.name,
      hits: await hitsOf(driver, big, shape.text),
      upstream: p50(b),
      ours: p50(a),
      samePage,
    });
  }
  return rows;
}
