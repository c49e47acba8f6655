/**
 * Migrations, writes that change the archive, the search fallback, and that both backends give the
 * same answers to search, tags and the change feed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/logger';
import { FIXTURE } from '../demo/dataset';
import { driverOf } from './archive-store';
import { listMigrations, MigrationRefused, migrateArchive, migrateOpenStore } from './migrate';
import { openArchiveStore } from './open';
import { sql } from './sql';
import { ALL_VISIBLE, type ArchiveDatabase, type Backend, type Visibility } from './store';
import { createTestDatabase, openTestStore, TEST_BACKENDS, type TestStore } from './testing/databases';

describe.each(TEST_BACKENDS)('schema and writes on %s', (backend) => {
  it('migrates only when asked, once, and refuses an unstamped archive', async () => {
    const database = await createTestDatabase(backend);
    try {
      const db = await openArchiveStore(database.config, silentLogger());
      expect(await db.probe()).toBe(true);
      await expect(db.listAccounts(ALL_VISIBLE)).rejects.toThrow();
      await db.close();
      const applied = await migrateArchive(database.config);
      expect(applied).toEqual(listMigrations(backend).map((m) => m.name));
      expect(await migrateArchive(database.config)).toEqual([]);
      const again = await openArchiveStore(database.config, silentLogger());
      await driverOf(again).exec('DROP TABLE schema_migrations');
      await expect(migrateOpenStore(again)).rejects.toBeInstanceOf(MigrationRefused);
      await again.close();
    } finally {
      await database.drop();
    }
  });

  /** What takes migration 003's full-text index away again, on each backend. */
  const DROP_FULL_TEXT_INDEX: Record<Backend, string> = {
    sqlite: 'DROP TABLE messages_fts; DROP TABLE media_transcripts_fts',
    postgresql:
      'ALTER TABLE messages DROP COLUMN text_search, DROP COLUMN tags; ALTER TABLE media_transcripts DROP COLUMN text_search',
  };

  describe('on a seeded archive', () => {
    let t: TestStore;
    let db: ArchiveDatabase;
    beforeAll(async () => {
      t = await openTestStore(backend);
      db = t.db;
    });
    afterAll(async () => t?.close());

    it('mints a 22-character ref once per (account, chat) and never hands it to another chat', async () => {
      const ref = await db.upsertChat({ accountId: 2, id: 4242, type: 'private', firstName: 'Nils' });
      expect(ref).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(
        await db.upsertChat({ accountId: 2, id: 4242, type: 'private', firstName: 'Nils', lastName: 'Ek' }),
      ).toBe(ref);
      const other = await db.upsertChat({ accountId: 1, id: 4242, type: 'private', firstName: 'Nils' });
      expect(other).not.toBe(ref);
      await driverOf(db).run(sql`DELETE FROM chats WHERE account_id = 2 AND id = 4242`);
      expect(await db.findChat(ALL_VISIBLE, ref)).toBeNull();
      await expect(
        db.upsertChat({ accountId: 2, id: 5353, type: 'group', title: 'Taken', ref }),
      ).rejects.toThrow();
      expect(await db.upsertChat({ accountId: 2, id: 4242, type: 'private', firstName: 'Nils' })).toBe(ref);
    });

    it('keeps a hard-deleted message out of the feed and moves the chat list date back', async () => {
      const key = (await db.findChat(ALL_VISIBLE, FIXTURE.family.ref))?.key;
      if (!key) throw new Error('fixture chat missing');
      const ref = { accountId: key.accountId, chatId: key.chatId, messageId: 78 };
      await db.editMessage({
        ...ref,
        text: 'I will bring dessert and candles.',
        editDate: new Date('2026-03-20T10:00:00Z'),
        source: 'sync',
      });
      await db.markMessageDeleted(ref, new Date('2026-03-20T11:00:00Z'));
      const before = await db.listChanges(ALL_VISIBLE, { limit: 50, includeTranscripts: true });
      expect(before.changes.slice(0, 2).map((c) => [c.kind, c.message_id])).toEqual([
        ['deleted', 78],
        ['edited', 78],
      ]);
      await db.deleteMessage(ref);
      const after = await db.listChanges(ALL_VISIBLE, { limit: 50, includeTranscripts: true });
      expect(after.changes.some((c) => c.message_id === 78)).toBe(false);
      expect((await db.findChat(ALL_VISIBLE, FIXTURE.family.ref))?.chat.last_message_date).toBe(
        '2026-03-09T18:00:00Z',
      );
    });

    it('walks a change feed with entries sharing a timestamp without skipping or repeating one', async () => {
      const rc = FIXTURE.releaseCrew.id;
      const at = new Date('2026-04-01T12:00:00Z');
      for (const id of [4101, 4102, 4103])
        await db.markMessageDeleted({ accountId: 1, chatId: rc, messageId: id }, at);
      await db.markMessageDeleted(
        { accountId: 1, chatId: rc, messageId: 4104 },
        new Date('2026-04-01T12:00:01Z'),
      );
      for (const limit of [1, 2, 3]) {
        const seen: string[] = [];
        let before: Date | undefined;
        for (let i = 0; i < 20; i++) {
          const page = await db.listChanges(ALL_VISIBLE, { limit, includeTranscripts: true, before });
          if (page.changes.length === 0) break;
          seen.push(...page.changes.map((c) => `${c.kind}:${c.message_id}`));
          before = new Date(page.nextBefore as string);
        }
        expect(seen.slice(0, 4).sort()).toEqual([
          'deleted:4101',
          'deleted:4102',
          'deleted:4103',
          'deleted:4104',
        ]);
        expect(new Set(seen).size).toBe(seen.length);
      }
      const first = await db.listChanges(ALL_VISIBLE, { limit: 2, includeTranscripts: true });
      expect(first.changes.map((c) => c.message_id)).toEqual([4104]);
    });

    it('keeps search in step with inserts, edits and deletions', async () => {
      const key = (await db.findChat(ALL_VISIBLE, FIXTURE.ops.ref))?.key;
      if (!key) throw new Error('fixture chat missing');
      const find = async (query: string) =>
        (
          await db.searchMessages(ALL_VISIBLE, { query, limit: 10, offset: 0, includeTranscripts: false })
        ).results.map((r) => r.id);
      await db.upsertMessages([
        {
          accountId: 2,
          chatId: key.chatId,
          id: 5003,
          date: new Date('2026-03-15T08:00:00Z'),
          text: 'Zeppelin deploy finished',
        },
      ]);
      expect(await find('zepp')).toEqual([5003]);
      await db.editMessage({
        accountId: 2,
        chatId: key.chatId,
        messageId: 5003,
        text: 'Blimp deploy finished',
        editDate: new Date('2026-03-15T08:01:00Z'),
        source: 'listener',
      });
      expect(await find('zepp')).toEqual([]);
      expect(await find('blimp')).toEqual([5003]);
      await db.deleteMessage({ accountId: 2, chatId: key.chatId, messageId: 5003 });
      expect(await find('blimp')).toEqual([]);
    });

    it('replaces reactions and avatars, and recalculates figures', async () => {
      const ref = { accountId: 1, chatId: FIXTURE.releaseCrew.id, messageId: 4176 };
      await db.setReactions(ref, [{ emoji: '🔑', count: 2 }]);
      await db.setReactions(ref, [{ emoji: '👀', count: 1 }]);
      const key = (await db.findChat(ALL_VISIBLE, FIXTURE.releaseCrew.ref))?.key;
      if (!key) throw new Error('fixture chat missing');
      const message = await db.getMessage(key, 4176, { withTranscripts: false });
      expect(message?.reactions).toEqual([{ emoji: '👀', count: 1 }]);
      await db.addAvatar({
        accountId: 1,
        chatId: FIXTURE.releaseCrew.id,
        photoId: null,
        seenAt: new Date('2026-03-20T00:00:00Z'),
      });
      expect((await db.findChat(ALL_VISIBLE, FIXTURE.releaseCrew.ref))?.chat.avatar_photo_id).toBeNull();
      expect((await db.listChatAvatars(key))[0]).toMatchObject({
        photo_id: null,
      });
      await db.upsertMessages([
        {
          accountId: 1,
          chatId: FIXTURE.releaseCrew.id,
          id: 4190,
          date: new Date('2026-03-21T00:00:00Z'),
          text: 'late',
        },
      ]);
      expect((await db.getArchiveFigures(ALL_VISIBLE)).messages).toBe(74);
      await db.refreshArchiveFigures(new Date('2026-03-21T01:00:00Z'));
      const figures = await db.getArchiveFigures(ALL_VISIBLE);
      expect(figures.stats_calculated_at).toBe('2026-03-21T01:00:00Z');
      expect(figures.messages).toBeGreaterThan(70);
    });

    it('falls back to substring search, reported as not indexed, when the index is missing', async () => {
      const fresh = await openTestStore(backend);
      try {
        await driverOf(fresh.db).exec(DROP_FULL_TEXT_INDEX[backend]);
        const reopened = await openArchiveStore(fresh.config, silentLogger());
        try {
          const page = await reopened.searchMessages(ALL_VISIBLE, {
            query: 'release party',
            limit: 10,
            offset: 0,
            includeTranscripts: true,
          });
          expect(page.indexed).toBe(false);
          expect(page.results.map((r) => r.id)).toEqual([4182, 41, 903]);
          const tagged = await reopened.listTaggedMessages(ALL_VISIBLE, {
            tag: '$BTC',
            scope: 'all',
            limit: 10,
            offset: 0,
          });
          expect(tagged.results.map((r) => r.id)).toEqual([4171, 4170, 5002]);
        } finally {
          await reopened.close();
        }
      } finally {
        await fresh.close();
      }
    });
  });
});

describe('both backends answer alike', () => {
  const stores = new Map<Backend, TestStore>();
  beforeAll(async () => {
    for (const backend of TEST_BACKENDS) stores.set(backend, await openTestStore(backend));
  });
  afterAll(async () => {
    for (const store of stores.values()) await store.close();
  });

  const visibilities: Visibility[] = [
    ALL_VISIBLE,
    { accounts: [1], chatRefs: null, displayChatIds: null },
    { accounts: null, chatRefs: [FIXTURE.anna.ref, FIXTURE.ops.ref], displayChatIds: null },
    { accounts: null, chatRefs: null, displayChatIds: [FIXTURE.releaseCrew.id] },
  ];

  async function answers(db: ArchiveDatabase) {
    const out: unknown[] = [];
    for (const vis of visibilities) {
      for (const query of ['release', 'rel part', 'SATURDAY', 'café', 'keys studio', '2 4', '$', 'seat']) {
        for (const offset of [0, 2]) {
          out.push(await db.searchMessages(vis, { query, limit: 3, offset, includeTranscripts: true }));
        }
      }
      for (const tag of ['#release', '#RELEASE', '$BTC', '#party', '#release_notes', '#nothing']) {
        for (const scope of ['all', 'mine'] as const) {
          out.push(await db.listTaggedMessages(vis, { tag, scope, limit: 4, offset: 1 }));
        }
      }
      for (const limit of [1, 2, 50]) {
        out.push(await db.listChanges(vis, { limit, includeTranscripts: true }));
        out.push(
          await db.listChanges(vis, {
            limit,
            includeTranscripts: false,
            before: new Date('2026-03-14T09:24:51Z'),
          }),
        );
        out.push(
          await db.listChanges(vis, { limit, includeTranscripts: true, since: new Date('2026-03-12') }),
        );
      }
    }
    return out;
  }

  it('gives identical search, tag and change-feed answers', async () => {
    const [sqlite, postgres] = await Promise.all(
      TEST_BACKENDS.map((b) => answers(stores.get(b)?.db as ArchiveDatabase)),
    );
    expect(sqlite?.length).toBeGreaterThan(100);
    expect(postgres).toEqual(sqlite);
  });
});
