// The archive store's shared suites on PostgreSQL, and what the planner makes of its search statements.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../common/logger';
import { driverOf } from '../archive-store';
import type { Driver } from '../driver';
import { migrateOpenStore } from '../migrate';
import { openArchiveStore } from '../open';
import { foldedSearchText } from '../queries/messages';
import { compile, sql } from '../sql';
import { ALL_VISIBLE } from '../store';
import { openTestStore, type TestStore } from '../testing/databases';
import { liveQueryCases } from '../testing/live-queries.cases';
import { archiveStoreCases } from '../testing/store.cases';
import { substringSearchCases } from '../testing/substring-search.cases';
import { POSTGRES_CAPABILITIES } from './capabilities';

archiveStoreCases('postgresql');
substringSearchCases('postgresql');
liveQueryCases('postgresql');

describe('the search planner on PostgreSQL', () => {
  let t: TestStore;
  let db: Driver;
  const plan = async (statement: ReturnType<typeof sql>) =>
    JSON.stringify((await db.all(sql`EXPLAIN (FORMAT JSON) ${statement}`))[0]);

  beforeAll(async () => {
    t = await openTestStore('postgresql', { seed: false });
    db = driverOf(t.db);
    // 60,000 messages of three words each out of 200, every word in about 1.5 % of them; "quokka" is in
    // 6 and the tag #launch in 1,200. The default statistics leave "quokka" out (too rare to list), and a
    // word not listed is estimated at half the rarest listed one: 450 messages, cheaper (says the
    // planner) to find by walking the archive newest first; with migration 006's statistics it is listed
    // with its own 6.
    await db.exec(`
      INSERT INTO accounts (id, label) VALUES (1, 'planner');
      INSERT INTO chat_refs (ref, account_id, chat_id) VALUES ('plannerplannerplanner1', 1, 1);
      INSERT INTO chats (account_id, id, ref, type, title) VALUES (1, 1, 'plannerplannerplanner1', 'group', 'Planner');
      WITH vocabulary AS (
        SELECT array_agg('w' || substr(md5(k::text), 1, 8) ORDER BY k) AS w FROM generate_series(1, 200) AS k)
      INSERT INTO messages (pk, account_id, chat_id, id, date, text)
        SELECT n, 1, 1, n, timestamptz '2024-01-01' + n * interval '1 second',
               w[n % 200 + 1] || ' ' || w[(n * 7) % 200 + 1] || ' ' || w[(n * 13 + 5) % 200 + 1]
                 || CASE WHEN n % 10000 = 0 THEN ' quokka' ELSE '' END
                 || CASE WHEN n % 50 = 0 THEN ' #Launch' ELSE '' END
          FROM vocabulary, generate_series(1, 60000) AS n;
      ANALYZE messages;`);
  });
  afterAll(async () => t?.close());

  it('reaches a word with few hits through the text index, not by walking the archive newest first', async () => {
    const words = async (word: string) => {
      const match = POSTGRES_CAPABILITIES.matchMessageText([word], true);
      return plan(
        sql`SELECT m.pk FROM ${match.from} WHERE ${match.where} ${match.newestFirst} LIMIT 21 OFFSET 0`,
      );
    };
    expect(await words('quokka')).toContain('idx_messages_text_search');
    // A common word's newest matches are still found by walking the archive's order.
    const common = String((await db.all(sql`SELECT 'w' || substr(md5('1'), 1, 8) AS word`))[0]?.word);
    expect(await words(common)).toContain('uq_messages_pk');
  });

  it("pages a common tag by the tags' index alone, walking the archive newest first", async () => {
    const lines: string[] = [];
    const store = await openArchiveStore(
      { ...t.config, echo: true } as typeof t.config,
      createLogger('test', 'info', { write: (line: string) => lines.push(line) }),
    );
    try {
      const page = await store.listTaggedMessages(ALL_VISIBLE, {
        tag: '#launch',
        scope: 'all',
        limit: 20,
        offset: 0,
      });
      expect(page.results.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, i) => 60000 - 50 * i));
    } finally {
      await store.close();
    }
    // The tag's statement carries no substring match beside the index (its guess of a handful of
    // messages had the planner read every tagged row and sort them).
    const statements = lines.map((line) => String(JSON.parse(line).sql ?? ''));
    const tagged = statements.filter((s) => s.includes('m.tags @>'));
    expect(tagged.length).toBeGreaterThan(0);
    for (const s of tagged) expect(s).not.toMatch(/LIKE/);
    const tag = POSTGRES_CAPABILITIES.tagIndexMatch('#launch');
    if (!tag) throw new Error('PostgreSQL keeps an index of tags');
    expect(await plan(sql`SELECT m.pk FROM messages m WHERE ${tag} ORDER BY m.pk DESC LIMIT 21`)).toContain(
      'uq_messages_pk',
    );
  });
});

describe("the GIN indexes' pending lists on PostgreSQL", () => {
  let t: TestStore;
  let db: Driver;
  const pendingPages = async (index: string) =>
    Number((await db.get(sql`SELECT pending_pages FROM pgstatginindex(${index}::regclass)`))?.pending_pages);

  beforeAll(async () => {
    t = await openTestStore('postgresql', { seed: false });
    db = driverOf(t.db);
    // Autovacuum would merge the lists too (the writes below are enough to start it): not while this runs.
    await db.exec(`
      CREATE EXTENSION IF NOT EXISTS pgstattuple;
      ALTER TABLE messages SET (autovacuum_enabled = false);
      ALTER TABLE message_search_words SET (autovacuum_enabled = false);
      INSERT INTO accounts (id, label) VALUES (1, 'pending');
      INSERT INTO chat_refs (ref, account_id, chat_id) VALUES ('pendingpendingpending1', 1, 1);
      INSERT INTO chats (account_id, id, ref, type, title) VALUES (1, 1, 'pendingpendingpending1', 'group', 'Pending');`);
  });
  afterAll(async () => t?.close());

  const write = (from: number, to: number) =>
    db.exec(`INSERT INTO messages (pk, account_id, chat_id, id, date, text)
      SELECT n, 1, 1, n, timestamptz '2024-01-01' + n * interval '1 second',
             'w' || substr(md5(n::text), 1, 6) || ' w' || substr(md5((n * 7)::text), 1, 6) || ' #t' || n % 97
        FROM generate_series(${from}, ${to}) AS n`);

  it('keeps each list to 64 kB, so a search never reads more than a few pending pages', async () => {
    const options = await db.all(sql`SELECT relname, reloptions::text AS options FROM pg_class
      WHERE relam = (SELECT oid FROM pg_am WHERE amname = 'gin') AND relkind = 'i'
        AND relnamespace = current_schema()::regnamespace
      ORDER BY relname`);
    expect(options).toEqual(
      [
        'idx_media_transcripts_text_search',
        'idx_message_search_words_substrings',
        'idx_messages_search_words',
        'idx_messages_tags',
        'idx_messages_text_search',
        'idx_messages_text_substrings',
      ].map((relname) => ({ relname, options: '{gin_pending_list_limit=64}' })),
    );
    // 20,000 messages of three new words each: about 1 MB of entries, which the default 4 MB list would
    // all still hold; two of the words are new to the vocabulary too, whose trigram index every in-chat
    // search reads.
    await write(1, 20_000);
    expect(await pendingPages('idx_messages_text_search')).toBeLessThanOrEqual(9);
    expect(await pendingPages('idx_message_search_words_substrings')).toBeLessThanOrEqual(9);
  });

  it('merges what a bulk write left pending when the bulk commands finish, and still finds it', async () => {
    await write(20_001, 20_200);
    expect(await pendingPages('idx_messages_text_search')).toBeGreaterThan(0);
    expect(await pendingPages('idx_messages_tags')).toBeGreaterThan(0);
    await t.db.compactSearchIndex();
    expect(await pendingPages('idx_messages_text_search')).toBe(0);
    expect(await pendingPages('idx_messages_tags')).toBe(0);
    const word = `w${String((await db.get(sql`SELECT substr(md5('20100'), 1, 6) AS w`))?.w)}`;
    const found = await t.db.searchMessages(ALL_VISIBLE, {
      query: word,
      limit: 5,
      offset: 0,
      includeTranscripts: false,
    });
    expect(found.results.map((r) => r.id)).toContain(20100);
  });

  it("leaves the lists alone, without an error, for a role that writes the archive's rows but owns no index", async () => {
    await write(20_201, 20_300);
    const role = `specyard_writer_${process.pid}`;
    const url = (t.config as { url: string }).url;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.query(`CREATE ROLE ${role}`);
      await admin.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`);
      await admin.query(`SET ROLE ${role}`);
      const [compact] = POSTGRES_CAPABILITIES.compactFullTextIndex ?? [];
      if (!compact) throw new Error('PostgreSQL merges its pending lists');
      const { text, params } = compile(compact, 'postgresql');
      expect(Number((await admin.query(text, params)).rows[0]?.pages)).toBe(0);
      await admin.query('RESET ROLE');
      expect(await pendingPages('idx_messages_text_search')).toBeGreaterThan(0);
      // The owner merges them.
      expect(Number((await admin.query(text, params)).rows[0]?.pages)).toBeGreaterThan(0);
    } finally {
      await admin.query('RESET ROLE').catch(() => undefined);
      await admin.query(`REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${role}`).catch(() => undefined);
      await admin.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
      await admin.end();
    }
  });
});

describe('the words of in-chat search on PostgreSQL (migration 010)', () => {
  let t: TestStore;
  let db: Driver;
  const chat = { accountId: 1, chatId: 1, ref: 'wordswordswordswords01' };
  const search = async (needle: string) =>
    (await t.db.listMessages(chat, { limit: 50, search: needle, withTranscripts: false })).map((m) => m.id);

  beforeAll(async () => {
    t = await openTestStore('postgresql', { seed: false });
    db = driverOf(t.db);
    // 20,000 messages of three words out of 200 (each in about 1.5 %), "quetzal" inside a word in 5 of them.
    await db.exec(`
      INSERT INTO accounts (id, label) VALUES (1, 'words');
      INSERT INTO chat_refs (ref, account_id, chat_id) VALUES ('wordswordswordswords01', 1, 1);
      INSERT INTO chats (account_id, id, ref, type, title) VALUES (1, 1, 'wordswordswordswords01', 'group', 'Words');
      WITH vocabulary AS (
        SELECT array_agg('w' || substr(md5(k::text), 1, 8) ORDER BY k) AS w FROM generate_series(1, 200) AS k)
      INSERT INTO messages (pk, account_id, chat_id, id, date, text)
        SELECT n, 1, 1, n, timestamptz '2024-01-01' + n * interval '1 second',
               w[n % 200 + 1] || ' ' || w[(n * 7) % 200 + 1] || ' ' || w[(n * 13 + 5) % 200 + 1]
                 || CASE WHEN n % 4000 = 0 THEN ' (Quetzalcoatl)' ELSE '' END
          FROM vocabulary, generate_series(1, 20000) AS n;
      ANALYZE messages;`);
  });
  afterAll(async () => t?.close());

  it('finds a rare word through the words index alone, and an absent one without reading a message', async () => {
    const lines: string[] = [];
    const store = await openArchiveStore(
      { ...t.config, echo: true } as typeof t.config,
      createLogger('test', 'info', { write: (line: string) => lines.push(line) }),
    );
    try {
      const found = await store.listMessages(chat, { limit: 50, search: 'ETZALC', withTranscripts: false });
      expect(found.map((m) => m.id)).toEqual([20000, 16000, 12000, 8000, 4000]);
      expect(lines.some((line) => String(JSON.parse(line).sql ?? '').includes('archive_search_words('))).toBe(
        true,
      );
      // strpos, not LIKE: a LIKE would have the planner read pg_trgm's lists of every trigram as well.
      const folded = foldedSearchText(POSTGRES_CAPABILITIES);
      const words = await POSTGRES_CAPABILITIES.substringCandidates?.find(db, 'etzalc', folded);
      if (!words || words === 'none')
        throw new Error(`the words index cannot narrow etzalc: ${String(words)}`);
      expect(words.exact).toBe(true);
      const plan = JSON.stringify(
        await db.all(sql`EXPLAIN (FORMAT JSON) SELECT m.id FROM messages m
          WHERE m.account_id = 1 AND m.chat_id = 1 AND ${words.condition} ORDER BY m.date DESC, m.id DESC LIMIT 50`),
      );
      expect(plan).toContain('idx_messages_search_words');
      expect(plan).not.toContain('idx_messages_text_substrings');
      lines.length = 0;
      expect(
        await store.listMessages(chat, { limit: 50, search: 'zanzibar', withTranscripts: false }),
      ).toEqual([]);
      const absent = lines.map((line) => String(JSON.parse(line).sql ?? ''));
      expect(absent.filter((s) => /FROM messages\b/.test(s) && !/FALSE/.test(s))).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('asks the vocabulary through a statement prepared once per connection, and answers the same each time', async () => {
    const folded = foldedSearchText(POSTGRES_CAPABILITIES);
    const found = await db.transaction(async (tx) => {
      const answers = [];
      for (const needle of ['etzalc', 'zanzibar', 'etzalc']) {
        answers.push(await POSTGRES_CAPABILITIES.substringCandidates?.find(tx, needle, folded));
      }
      const named = await tx.all<{ name: string }>(sql`SELECT name FROM pg_prepared_statements`);
      return { answers, named: named.map((r) => r.name) };
    });
    expect(found.named).toContain('archive_search_words_holding');
    expect(found.answers[1]).toBe('none');
    expect(found.answers[0]).toEqual(found.answers[2]);
  });

  it('looks the words up with a plan that reads the trigram index for every needle, the one plan kept after five runs included', async () => {
    const client = new pg.Client({ connectionString: (t.config as { url: string }).url });
    await client.connect();
    const plans: string[] = [];
    client.on('notice', (notice) => {
      if (String(notice.message).includes('message_search_words')) plans.push(String(notice.message));
    });
    try {
      await client.query('BEGIN');
      // A vocabulary of an archive's size, so that reading all of it is a plan the planner weighs.
      await client.query(`INSERT INTO message_search_words (word)
        SELECT 'w' || g || md5(g::text) FROM generate_series(1, 20000) AS g`);
      await client.query('ANALYZE message_search_words');
      await client.query("LOAD 'auto_explain'");
      await client.query(`SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on;
        SET auto_explain.log_level = 'notice'`);
      for (let i = 0; i < 12; i++) {
        await client.query({
          name: 'holding',
          text: 'SELECT word FROM archive_search_words_holding($1, 513) AS word',
          values: [i % 2 ? `%absent${i}word%` : '%zanzibar%'],
        });
      }
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
    }
    expect(plans.length).toBeGreaterThanOrEqual(12);
    for (const plan of plans) {
      expect(plan).toContain('idx_message_search_words_substrings');
      expect(plan).not.toContain('Seq Scan');
    }
  });

  it('lets two writers add the same new word at once, neither waiting for the other', async () => {
    // Two chats: writers to one chat wait for each other anyway (its last message date, migration 001).
    await db.exec(`
      INSERT INTO chat_refs (ref, account_id, chat_id) VALUES ('wordswordswordswords02', 1, 2);
      INSERT INTO chats (account_id, id, ref, type, title) VALUES (1, 2, 'wordswordswordswords02', 'group', 'More words');`);
    const url = (t.config as { url: string }).url;
    const [a, b] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
    await Promise.all([a.connect(), b.connect()]);
    const insert = (client: pg.Client, chatId: number, id: number) =>
      client.query(`INSERT INTO messages (pk, account_id, chat_id, id, date, text)
        VALUES (${id}, 1, ${chatId}, ${id}, timestamptz '2025-01-01' + ${id} * interval '1 second', 'first axolotl sighting')`);
    try {
      for (const client of [a, b]) await client.query("BEGIN; SET LOCAL statement_timeout = '3s'");
      await insert(a, 1, 30_001);
      await insert(b, 2, 30_002);
      await Promise.all([a.query('COMMIT'), b.query('COMMIT')]);
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
    expect(await search('AXOLOTL')).toEqual([30_001]);
    const other = await t.db.listMessages(
      { accountId: 1, chatId: 2, ref: 'wordswordswordswords02' },
      { limit: 50, search: 'axolotl', withTranscripts: false },
    );
    expect(other.map((m) => m.id)).toEqual([30_002]);
  });

  it('lets a role granted the archive tables before this revision write messages and search their words; no other role may ask the vocabulary', async () => {
    const role = `specyard_words_writer_${process.pid}`;
    const stranger = `specyard_words_stranger_${process.pid}`;
    const url = (t.config as { url: string }).url;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const lookup = "SELECT word FROM archive_search_words_holding('%uokk%', 10) AS word";
    try {
      await admin.query(`DROP ROLE IF EXISTS ${role}; DROP ROLE IF EXISTS ${stranger}`);
      await admin.query(`CREATE ROLE ${role}; CREATE ROLE ${stranger}`);
      await admin.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`);
      await admin.query(`REVOKE ALL ON message_search_words FROM ${role}`);
      // Revision 11 run after that grant, as on an archive its roles were set up for before it.
      await admin.query(`DROP FUNCTION archive_search_words_holding(text, integer);
        DELETE FROM schema_migrations WHERE version = 11`);
      expect(await migrateOpenStore(t.db)).toEqual(['011_search_words_lookup']);
      await admin.query(`SET ROLE ${role}`);
      await admin.query(`INSERT INTO messages (pk, account_id, chat_id, id, date, text)
        VALUES (50001, 1, 1, 50001, '2026-02-01', 'a quokka at the door')`);
      await expect(admin.query('SELECT count(*) FROM message_search_words')).rejects.toThrow(
        /permission denied/,
      );
      // Its searches ask the vocabulary all the same: the lookup runs as the archive's owner.
      expect((await admin.query(lookup)).rows.map((r) => r.word)).toEqual(['quokka']);
      // A role that may not read the messages may not ask their words either.
      await admin.query(`RESET ROLE; SET ROLE ${stranger}`);
      await expect(admin.query(lookup)).rejects.toThrow(/permission denied for function/);
    } finally {
      await admin.query('RESET ROLE').catch(() => undefined);
      await admin.query(`REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${role}`).catch(() => undefined);
      await admin
        .query(`REVOKE ALL ON FUNCTION archive_search_words_holding(text, integer) FROM ${role}`)
        .catch(() => undefined);
      await admin
        .query(`DROP ROLE IF EXISTS ${role}; DROP ROLE IF EXISTS ${stranger}`)
        .catch(() => undefined);
      await admin.end();
    }
    expect(await search('QUOKKA')).toEqual([50001]);
  });

  it('keeps the definer functions on the archive schema, a temporary table never read in its place', async () => {
    const rows = await db.all<{ name: string; config: string[] }>(
      sql`SELECT proname AS name, proconfig AS config FROM pg_proc
           WHERE proname IN ('archive_search_words_holding', 'archive_keep_search_words') ORDER BY proname`,
    );
    expect(rows.map((r) => [r.name, r.config.find((c) => c.startsWith('search_path='))])).toEqual([
      ['archive_keep_search_words', 'search_path=public, pg_temp'],
      ['archive_search_words_holding', 'search_path=public, pg_temp'],
    ]);
  });

  it('indexes the words of an edit, and the words longer than it keeps whole as one key', async () => {
    const long = `${'x'.repeat(70)}ocelot${'y'.repeat(5)}`;
    await t.db.upsertMessages([
      {
        accountId: 1,
        chatId: 1,
        id: 17,
        date: new Date('2024-01-01T00:00:17Z'),
        text: `an edit\tabout ${long}`,
      },
    ]);
    expect(await search('ocelot')).toEqual([17]);
    expect(await search(long.toUpperCase())).toEqual([17]);
    const vocabulary = await db.all<{ word: string }>(
      sql`SELECT DISTINCT word FROM message_search_words WHERE word IN ('edit', 'about', '', ${long}) ORDER BY word`,
    );
    expect(vocabulary.map((r) => r.word)).toEqual(['', 'about', 'edit']);
  });

  it('indexes the messages written before it when it runs', async () => {
    await db.exec(`
      DROP TRIGGER messages_search_words_ai ON messages;
      DROP TRIGGER messages_search_words_au ON messages;
      DROP FUNCTION archive_search_words_holding(text, integer);
      DROP FUNCTION archive_keep_search_words();
      DROP TABLE message_search_words;
      DROP INDEX idx_messages_search_words;
      DROP FUNCTION archive_search_words(text);
      DELETE FROM schema_migrations WHERE version IN (10, 11);
      INSERT INTO messages (pk, account_id, chat_id, id, date, text, poll_text)
        VALUES (40001, 1, 1, 40001, '2026-01-01', NULL, 'Where to?' || chr(10) || 'Tenochtitlan');`);
    expect(await migrateOpenStore(t.db)).toEqual(['010_substring_words', '011_search_words_lookup']);
    expect(await search('NOCHTIT')).toEqual([40001]);
    expect(await search('etzalc')).toEqual([20000, 16000, 12000, 8000, 4000]);
  });
});
