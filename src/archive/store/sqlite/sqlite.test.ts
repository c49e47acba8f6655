// The archive store's shared suites on SQLite, and what only SQLite's full-text index does.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../common/logger';
import type { ArchiveSqlStore } from '../archive-store';
import type { Queryable } from '../driver';
import { listMigrations, migrateArchive } from '../migrate';
import { openArchiveStore } from '../open';
import { foldedSearchText } from '../queries/messages';
import { PREFIX_TERMS_MAX } from '../queries/search';
import { sql } from '../sql';
import { ALL_VISIBLE } from '../store';
import { openTestStore, type TestStore } from '../testing/databases';
import { liveQueryCases } from '../testing/live-queries.cases';
import { archiveStoreCases } from '../testing/store.cases';
import { substringSearchCases } from '../testing/substring-search.cases';
import { SQLITE_CAPABILITIES } from './capabilities';
import { SqliteDriver } from './driver';

archiveStoreCases('sqlite');
substringSearchCases('sqlite');
liveQueryCases('sqlite');

describe('an import on SQLite', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore('sqlite', { seed: false });
  });
  afterAll(() => store.close());

  const driver = () => (store.db as ArchiveSqlStore).driver;
  const automerge = async (db: Queryable = driver()) => {
    const row = await db.get(sql`SELECT v FROM messages_fts_config WHERE k = 'automerge'`);
    return row ? Number(row.v) : null;
  };

  it('an import holds them for its transaction only, and a failed chat leaves them as they were', async () => {
    expect(await automerge()).toBe(null);
    await expect(
      store.db.importTransaction(async () => {
        throw new Error('the export broke off');
      }),
    ).rejects.toThrow('the export broke off');
    expect(await automerge()).toBe(null);
    await store.db.importTransaction(async (w) => {
      const accountId = await w.ensureAccount();
      await w.upsertChat({ accountId, id: 42, type: 'private', title: 'Bulk' });
      await w.insertMessages([
        { accountId, chatId: 42, id: 1, date: new Date('2024-01-01T00:00:00Z'), text: 'bulk write' },
      ]);
    });
    expect(await automerge()).toBe(4);
    const found = await store.db.searchMessages(ALL_VISIBLE, {
      query: 'bulk',
      limit: 5,
      offset: 0,
      includeTranscripts: false,
    });
    expect(found.results.map((r) => r.id)).toEqual([1]);
  });

  it("raises FTS5's automerge while a bulk write's transaction lasts", async () => {
    const bulk = driver().capabilities.bulkWrite;
    if (!bulk) throw new Error('SQLite declares its bulk-write settings');
    const seen = await driver().transaction(async (tx) => {
      await tx.run(bulk.begin);
      const during = await automerge(tx);
      await tx.run(bulk.end);
      return [during, await automerge(tx)];
    });
    expect(seen).toEqual([16, 4]);
  });
});

describe("SQLite's message index and the list of its words", () => {
  let store: TestStore;
  const driver = () => (store.db as ArchiveSqlStore).driver;
  const search = async (query: string) =>
    (
      await store.db.searchMessages(ALL_VISIBLE, { query, limit: 50, offset: 0, includeTranscripts: false })
    ).results
      .map((r) => r.id)
      .sort((a, b) => a - b);
  // What FTS5 itself finds for the same prefixes (its own prefix match, every word required).
  const native = async (words: string[]) =>
    (
      await driver().all<{ id: number }>(sql`SELECT m.id FROM messages_fts f JOIN messages m ON m.pk = f.rowid
        WHERE messages_fts MATCH ${words.map((w) => `"${w}"*`).join(' AND ')}`)
    )
      .map((r) => Number(r.id))
      .sort((a, b) => a - b);
  const TEXTS = [
    'Café crème at noon',
    'cafeteria closes early',
    'Ёлка и ёжик',
    'елка без игрушек',
    'release party tonight',
    'relay the release notes',
    'Straße gesperrt',
    'naïve façade',
    '日本語のテキスト',
  ];

  beforeAll(async () => {
    store = await openTestStore('sqlite', { seed: false });
    const accountId = await store.db.upsertAccount({ label: 'words' });
    await store.db.upsertChat({ accountId, id: 7, type: 'group', title: 'Words' });
    await store.db.upsertMessages(
      TEXTS.map((text, i) => ({
        accountId,
        chatId: 7,
        id: i + 1,
        date: new Date(Date.UTC(2024, 0, 1, 0, i)),
        text,
      })),
    );
  });
  afterAll(() => store.close());

  it('finds with each prefix spelled out as the index words what FTS5 finds with the prefix itself', async () => {
    for (const query of [
      'caf',
      'CAFÉ',
      'cafe',
      'rel',
      'release',
      'rel par',
      'ёлк',
      'елк',
      'ЁЖ',
      'stra',
      'strasse',
      'naive',
      'fac',
      '日本',
      'zzz',
    ]) {
      const typed = query.match(/[\p{L}\p{N}]+/gu) ?? [];
      expect({ query, ids: await search(query) }).toEqual({ query, ids: await native(typed) });
    }
    expect(await search('caf')).toEqual([1, 2]);
    expect(await search('rel par')).toEqual([5]);
  });

  it('lists the words of messages as they are written, and after a bulk load once the index is compacted', async () => {
    const terms = async () =>
      (await driver().all<{ term: string }>(sql`SELECT term FROM messages_fts_terms ORDER BY term`)).map(
        (r) => String(r.term),
      );
    const pending = async () =>
      Number((await driver().get(sql`SELECT count(*) AS n FROM messages_fts_pending_terms`))?.n);
    expect(await terms()).toContain('creme');
    expect(await pending()).toBe(0);
    // Written past the store (as a bulk load writes): pending, and searched all the same.
    await driver().run(sql`INSERT INTO messages (pk, account_id, chat_id, id, date, text)
      SELECT max(pk) + 1, account_id, chat_id, 100, '2024-02-01T00:00:00.000Z', 'quokkas everywhere' FROM messages`);
    expect(await terms()).not.toContain('quokkas');
    expect(await pending()).toBe(2);
    expect(await search('quok')).toEqual([100]);
    await store.db.compactSearchIndex();
    expect(await pending()).toBe(0);
    expect(await terms()).toContain('quokkas');
    expect(await search('quok')).toEqual([100]);
    // An edit lists its new words at once; the old ones stay listed and find nothing.
    await store.db.editMessage({
      accountId: 1,
      chatId: 7,
      messageId: 100,
      text: 'wombats instead',
      editDate: new Date('2024-02-02T00:00:00Z'),
      source: 'listener',
    });
    expect(await terms()).toContain('wombats');
    expect(await search('wom')).toEqual([100]);
    expect(await search('quok')).toEqual([]);
  });

  it('finds a query without letters as a substring of the texts as written, any case around it', async () => {
    await store.db.upsertMessages([
      { accountId: 1, chatId: 7, id: 300, date: new Date('2024-04-01T00:00:00Z'), text: 'LAUNCH 🚀 TODAY' },
      { accountId: 1, chatId: 7, id: 301, date: new Date('2024-04-02T00:00:00Z'), text: 'launch 🚀!' },
    ]);
    const page = await store.db.searchMessages(ALL_VISIBLE, {
      query: '🚀',
      limit: 10,
      offset: 0,
      includeTranscripts: false,
    });
    expect(page.indexed).toBe(false);
    expect(page.results.map((r) => r.id)).toEqual([301, 300]);
    expect((await search('🚀!')).length).toBe(1);
  });

  it('matches a prefix that begins more words than are spelled out with the index itself', async () => {
    const many = Array.from({ length: PREFIX_TERMS_MAX + 1 }, (_, i) => `zq${i.toString(36)}`).join(' ');
    await store.db.upsertMessages([
      { accountId: 1, chatId: 7, id: 200, date: new Date('2024-03-01T00:00:00Z'), text: many },
    ]);
    expect(await search('zq')).toEqual([200]);
    expect(await search('zq zq1')).toEqual([200]);
    // The words are spelled out up to the limit over the whole search: the second word here, which
    // would pass it, is matched as a prefix.
    const half = (prefix: string) =>
      Array.from({ length: PREFIX_TERMS_MAX * 0.6 }, (_, i) => `${prefix}${i.toString(36)}`).join(' ');
    await store.db.upsertMessages([
      {
        accountId: 1,
        chatId: 7,
        id: 201,
        date: new Date('2024-03-02T00:00:00Z'),
        text: `${half('yx')} ${half('wv')}`,
      },
    ]);
    expect(await search('yx wv')).toEqual([201]);
    expect(await search('yx wv zq')).toEqual([]);
  });
});

/**
 * An archive as the release before migration `version` left it: every earlier migration applied (with
 * no checksums, as those releases wrote them) and `rows` written, handed to `check` as its file.
 */
async function writtenBefore(version: number, rows: string, check: (file: string) => Promise<void>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `specyard-archive-${String(version).padStart(3, '0')}-`));
  const file = path.join(dir, 'archive.db');
  try {
    const db = new Database(file);
    db.exec(`CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL,
      applied_at text NOT NULL, checksum text)`);
    for (const m of listMigrations('sqlite').filter((m) => m.version < version)) {
      db.exec(m.script);
      db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?, NULL)').run(m.version, m.name, '2024-01-01');
    }
    db.exec(rows);
    db.close();
    await check(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('migration 006 on an archive written before it', () => {
  it('lists the words already indexed, polls included, so prefixes find the old messages', async () => {
    await writtenBefore(
      6,
      `INSERT INTO accounts (id, label) VALUES (1, 'old');
        INSERT INTO chat_refs (ref, account_id, chat_id) VALUES ('oldoldoldoldoldoldold1', 1, 5);
        INSERT INTO chats (account_id, id, ref, type, title) VALUES (1, 5, 'oldoldoldoldoldoldold1', 'group', 'Old');
        INSERT INTO messages (pk, account_id, chat_id, id, date, text) VALUES (10, 1, 5, 1, '2023-05-01T00:00:00.000Z', 'Kaffeeklatsch am Sonntag');
        INSERT INTO messages (pk, account_id, chat_id, id, date, text, poll, poll_text)
          VALUES (11, 1, 5, 2, '2023-05-02T00:00:00.000Z', NULL, '{}', 'Lunch where?' || char(10) || 'Trattoria');`,
      async (file) => {
        const config = { backend: 'sqlite', path: file, timeoutSeconds: 5, echo: false } as const;
        expect(await migrateArchive(config)).toEqual([
          '006_search_terms',
          '007_search_pending_lists',
          '008_channel_post_senders',
          '009_substring_search',
          '010_substring_words',
          '011_search_words_lookup',
          '012_search_words_pending_list',
        ]);
        const store = await openArchiveStore(config, silentLogger());
        try {
          const find = async (query: string) =>
            (
              await store.searchMessages(ALL_VISIBLE, {
                query,
                limit: 5,
                offset: 0,
                includeTranscripts: false,
              })
            ).results.map((r) => r.id);
          expect(await find('kaffee')).toEqual([1]);
          expect(await find('sonn kaff')).toEqual([1]);
          expect(await find('tratt')).toEqual([2]);
        } finally {
          await store.close();
        }
      },
    );
  });
});

describe("the SQLite driver's rows", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'specyard-archive-rows-'));
  const driver = new SqliteDriver({ path: path.join(dir, 'rows.db'), timeoutSeconds: 5 });
  afterAll(async () => {
    await driver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('are named by column, a later column of a repeated name winning, as the library names them', async () => {
    const query = sql`SELECT 1 AS a, 'two' AS b, NULL AS c, 3 AS a`;
    expect(await driver.all(query)).toEqual([{ a: 3, b: 'two', c: null }]);
    const library = new Database(':memory:');
    try {
      expect(await driver.all(query)).toEqual([
        library.prepare("SELECT 1 AS a, 'two' AS b, NULL AS c, 3 AS a").get(),
      ]);
    } finally {
      library.close();
    }
  });

  it("take a table's columns as they are when a statement reads them all, also after the table changed", async () => {
    await driver.exec('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)');
    const everything = sql`SELECT * FROM t`;
    expect(await driver.all(everything)).toEqual([{ x: 1 }]);
    // Another connection adds a column: the cached statement is prepared again by SQLite.
    const other = new Database(path.join(dir, 'rows.db'));
    other.exec("ALTER TABLE t ADD COLUMN y TEXT; UPDATE t SET y = 'new'");
    other.close();
    expect(await driver.all(everything)).toEqual([{ x: 1, y: 'new' }]);
    expect(await driver.all(sql`SELECT y, x FROM t`)).toEqual([{ y: 'new', x: 1 }]);
  });
});

describe('migration 008 on an archive written before it', () => {
  it("gives a channel's posts without a sender the channel as sender, and leaves other chats alone", async () => {
    await writtenBefore(
      8,
      `INSERT INTO accounts (id, label) VALUES (1, 'old');
        INSERT INTO chat_refs (ref, account_id, chat_id) VALUES ('oldoldoldoldoldoldold1', 1, -1005);
        INSERT INTO chats (account_id, id, ref, type, title) VALUES (1, -1005, 'oldoldoldoldoldoldold1', 'channel', 'News');
        INSERT INTO chat_refs (ref, account_id, chat_id) VALUES ('oldoldoldoldoldoldold2', 1, -6);
        INSERT INTO chats (account_id, id, ref, type, title) VALUES (1, -6, 'oldoldoldoldoldoldold2', 'group', 'Team');
        INSERT INTO messages (pk, account_id, chat_id, id, date, text) VALUES (10, 1, -1005, 1, '2023-05-01T00:00:00.000Z', 'post');
        INSERT INTO messages (pk, account_id, chat_id, id, date, text, sender_name) VALUES (11, 1, -1005, 2, '2023-05-02T00:00:00.000Z', 'signed', 'Editor');
        INSERT INTO messages (pk, account_id, chat_id, id, date, text) VALUES (12, 1, -6, 1, '2023-05-03T00:00:00.000Z', 'no sender');`,
      async (file) => {
        const config = { backend: 'sqlite', path: file, timeoutSeconds: 5, echo: false } as const;
        expect(await migrateArchive(config)).toEqual([
          '008_channel_post_senders',
          '009_substring_search',
          '010_substring_words',
          '011_search_words_lookup',
          '012_search_words_pending_list',
        ]);
        const after = new Database(file, { readonly: true });
        try {
          expect(
            after.prepare('SELECT chat_id, id, sender_id, sender_name FROM messages ORDER BY pk').all(),
          ).toEqual([
            { chat_id: -1005, id: 1, sender_id: -1005, sender_name: 'News' },
            { chat_id: -1005, id: 2, sender_id: -1005, sender_name: 'Editor' },
            { chat_id: -6, id: 1, sender_id: null, sender_name: null },
          ]);
        } finally {
          after.close();
        }
      },
    );
  });
});

describe('migration 009 on an archive written before it', () => {
  it('indexes the substrings of every message already written, polls included, casefolded, and counts them', async () => {
    await writtenBefore(
      9,
      `INSERT INTO accounts (id, label) VALUES (1, 'old');
        INSERT INTO chat_refs (ref, account_id, chat_id) VALUES ('oldoldoldoldoldoldold2', 1, -6);
        INSERT INTO chats (account_id, id, ref, type, title) VALUES (1, -6, 'oldoldoldoldoldoldold2', 'group', 'Team');
        INSERT INTO messages (pk, account_id, chat_id, id, date, text) VALUES (10, 1, -6, 1, '2023-05-01T00:00:00.000Z', 'Trip to ZANZIBAR');
        INSERT INTO messages (pk, account_id, chat_id, id, date, text, poll_text) VALUES (11, 1, -6, 2, '2023-05-02T00:00:00.000Z', NULL, 'Where to?
Lighthouse');`,
      async (file) => {
        const config = { backend: 'sqlite', path: file, timeoutSeconds: 5, echo: false } as const;
        expect(await migrateArchive(config)).toEqual([
          '009_substring_search',
          '010_substring_words',
          '011_search_words_lookup',
          '012_search_words_pending_list',
        ]);
        const after = new Database(file, { readonly: true });
        try {
          const match = (q: string) =>
            after
              .prepare(
                'SELECT rowid FROM messages_substrings WHERE messages_substrings MATCH ? ORDER BY rowid',
              )
              .all(q)
              .map((r) => (r as { rowid: number }).rowid);
          expect(match('"zib" AND "bar"')).toEqual([10]);
          expect(match('"ZIB"')).toEqual([]);
          expect(match('"lig" AND "use"')).toEqual([11]);
          expect(
            after
              .prepare("SELECT docs FROM messages_substrings_counts WHERE term IN ('', 'zan') ORDER BY term")
              .all(),
          ).toEqual([{ docs: 2 }, { docs: 1 }]);
        } finally {
          after.close();
        }
      },
    );
  });
});

describe('the substring index on SQLite', () => {
  let store: TestStore;
  afterAll(() => store.close());
  const FOLDED = foldedSearchText(SQLITE_CAPABILITIES);
  const texts = ['kayak trip', 'a kiosk', 'zanzibar', 'coffee'];

  beforeAll(async () => {
    store = await openTestStore('sqlite', { seed: false });
    await store.db.upsertAccount({ id: 1, label: null });
    await store.db.upsertChat({ accountId: 1, id: 77, type: 'private', title: 'Spellings' });
    await store.db.upsertMessages(
      texts.map((t, i) => ({
        accountId: 1,
        chatId: 77,
        id: i + 1,
        date: new Date(Date.UTC(2025, 0, 1, 0, i)),
        text: t,
      })),
    );
  });

  it('counts the trigrams of every message when a bulk write ends', async () => {
    await store.db.finishBulkWrite(new Date('2026-01-01T00:00:00Z'));
    const counted = await (store.db as ArchiveSqlStore).driver.all<{ term: string; docs: number }>(
      sql`SELECT term, docs FROM messages_substrings_counts WHERE term IN ('', 'kay', 'k') ORDER BY term`,
    );
    expect(counted.map((r) => [r.term, Number(r.docs)])).toEqual([
      ['', texts.length],
      ['kay', 1],
    ]);
  });

  it('finds a pair followed by the greatest code point, the last trigram that begins with it', async () => {
    const driver = (store.db as ArchiveSqlStore).driver;
    await store.db.upsertMessages([
      { accountId: 1, chatId: 77, id: 9001, date: new Date(Date.UTC(2024, 0, 1)), text: 'qz\u{10FFFF}' },
    ]);
    const candidates = await driver.capabilities.substringCandidates?.find(driver, 'qz', FOLDED);
    if (!candidates || candidates === 'none') throw new Error(`no candidates for qz: ${String(candidates)}`);
    const rows = await driver.all<{ id: number }>(
      sql`SELECT m.id FROM messages m WHERE m.chat_id = 77 AND ${candidates.condition}`,
    );
    expect(rows.map((r) => Number(r.id))).toContain(9001);
  });
});
