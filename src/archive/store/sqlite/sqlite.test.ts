// The archive store's shared suites on SQLite, and what only SQLite's full-text index does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveSqlStore } from '../archive-store';
import type { Queryable } from '../driver';
import { liveQueryCases } from '../live-queries.cases';
import { sql } from '../sql';
import { ALL_VISIBLE } from '../store';
import { archiveStoreCases } from '../store.cases';
import { openTestStore, type TestStore } from '../test-databases';

archiveStoreCases('sqlite');
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
