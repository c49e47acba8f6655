/**
 * The one store suite, as cases every backend's test file runs (sqlite/sqlite.test.ts,
 * postgres/postgres.test.ts), on a fresh database seeded with the fixture archive.
 */
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { type CaseSkips, sharedCases } from '../../common/testing/cases';
import { IntegerList } from '../model/int64';
import type { ArchiveSqlStore } from './archive-store';
import { FIXTURE } from './fixtures';
import { freeSlots, insertMessageRows } from './queries/ingest';
import { raw, type Sql, sql } from './sql';
import type { Backend } from './store';
import {
  ALL_VISIBLE,
  type ArchiveDatabase,
  type ChatKey,
  StoreConflictError,
  type Visibility,
} from './store';
import { openTestStore, type TestStore } from './test-databases';

const view = { withTranscripts: true };
const only = (v: Partial<Visibility>): Visibility => ({ ...ALL_VISIBLE, ...v });

export function archiveStoreCases(backend: Backend, skip?: CaseSkips): void {
  const it = sharedCases(`archive store on ${backend}`, skip);

  describe(`archive store on ${backend}`, () => {
    let t: TestStore;
    let db: ArchiveDatabase;
    let rc: ChatKey;

    beforeAll(async () => {
      t = await openTestStore(backend);
      db = t.db;
      const found = await db.findChat(ALL_VISIBLE, FIXTURE.releaseCrew.ref);
      if (!found) throw new Error('fixture chat missing');
      rc = found.key;
    });
    afterAll(async () => t?.close());

    describe('accounts, chats, folders', () => {
      it('lists accounts with default labels and honours allowed_accounts', async () => {
        expect(await db.listAccounts(ALL_VISIBLE)).toEqual([
          { id: 1, label: 'default' },
          { id: 2, label: 'work' },
        ]);
        expect(await db.listAccounts(only({ accounts: [2] }))).toEqual([{ id: 2, label: 'work' }]);
      });

      it('pages the chat list, newest activity first, with the total of all matches', async () => {
        const first = await db.listChats(ALL_VISIBLE, { limit: 2, offset: 0 });
        expect(first.total).toBe(6);
        expect(first.chats.map((c) => c.ref)).toEqual([FIXTURE.releaseCrew.ref, FIXTURE.anna.ref]);
        const rest = await db.listChats(ALL_VISIBLE, { limit: 10, offset: 2 });
        expect(rest.chats).toHaveLength(4);
        const chat = first.chats[0];
        expect(chat).toMatchObject({
          id: FIXTURE.releaseCrew.id,
          title: 'Release Crew',
          name: 'Release Crew',
          accounts: [{ id: 1, label: 'default' }],
          avatar_photo_id: '5879443210987654321',
          last_message_date: '2026-03-14T09:21:07Z',
        });
      });

      it('filters chats by search, archived and folder, and by visibility', async () => {
        const byName = await db.listChats(ALL_VISIBLE, { limit: 50, offset: 0, search: 'ANNA b' });
        expect(byName.chats.map((c) => c.ref)).toEqual([FIXTURE.anna.ref]);
        expect(byName.chats[0]?.name).toBe('Anna Berg');
        const archived = await db.listChats(ALL_VISIBLE, { limit: 50, offset: 0, archived: true });
        expect(archived.chats.map((c) => c.ref)).toEqual([FIXTURE.news.ref]);
        const work = await db.listChats(ALL_VISIBLE, {
          limit: 50,
          offset: 0,
          folderId: FIXTURE.folders.work,
        });
        expect(work.total).toBe(2);
        expect((await db.listChats(ALL_VISIBLE, { limit: 50, offset: 0, folderId: 999 })).total).toBe(0);
        const wildcard = await db.listChats(ALL_VISIBLE, { limit: 50, offset: 0, search: '%' });
        expect(wildcard.total).toBe(0);
        const grants = only({ chatRefs: [FIXTURE.anna.ref, FIXTURE.ops.ref], accounts: [1] });
        expect((await db.listChats(grants, { limit: 50, offset: 0 })).chats.map((c) => c.ref)).toEqual([
          FIXTURE.anna.ref,
        ]);
        expect((await db.listChats(only({ chatRefs: [] }), { limit: 50, offset: 0 })).total).toBe(0);
        const display = only({ displayChatIds: [FIXTURE.family.id] });
        expect((await db.listChats(display, { limit: 50, offset: 0 })).total).toBe(1);
      });

      it('finds a chat by ref only when visible and well-formed', async () => {
        expect((await db.findChat(ALL_VISIBLE, FIXTURE.anna.ref))?.chat.type).toBe('private');
        expect(await db.findChat(only({ chatRefs: [FIXTURE.ops.ref] }), FIXTURE.anna.ref)).toBeNull();
        expect(await db.findChat(ALL_VISIBLE, 'not-a-ref')).toBeNull();
        expect(await db.findChat(ALL_VISIBLE, 'AAAAAAAAAAAAAAAAAAAAAA')).toBeNull();
        expect(await db.findChat(ALL_VISIBLE, "k3JZp0aV8s2Q1xWn7bRt4' OR 1=1")).toBeNull();
      });

      it('counts folders and archived chats over visible chats only', async () => {
        expect(await db.listFolders(ALL_VISIBLE)).toEqual([
          { id: 3, account_id: 1, title: 'Work', emoticon: '💼', sort_order: 0, chat_count: 2 },
          { id: 4, account_id: 1, title: 'Family', emoticon: null, sort_order: 1, chat_count: 2 },
        ]);
        expect(await db.listFolders(only({ chatRefs: [FIXTURE.anna.ref] }))).toEqual([
          { id: 4, account_id: 1, title: 'Family', emoticon: null, sort_order: 1, chat_count: 1 },
        ]);
        expect(await db.countArchivedChats(ALL_VISIBLE)).toBe(1);
        expect(await db.countArchivedChats(only({ accounts: [2] }))).toBe(0);
      });

      it('lists every chat for the admin picker and checks refs', async () => {
        const all = await db.listAdminChats();
        expect(all).toHaveLength(6);
        expect(all.find((c) => c.ref === FIXTURE.anna.ref)?.title).toBe('Anna Berg');
        expect(await db.existingChatRefs([FIXTURE.ops.ref, 'AAAAAAAAAAAAAAAAAAAAAA', 'bad'])).toEqual([
          FIXTURE.ops.ref,
        ]);
      });
    });

    describe('a source updates only what it carries', () => {
      /** The row as stored, every column but the time of the write. */
      const row = async (table: string, where: Sql) => {
        const driver = (db as ArchiveSqlStore).driver;
        const found = await driver.get(sql`SELECT * FROM ${raw(table)} WHERE ${where}`);
        if (!found) throw new Error(`no ${table} row`);
        const { updated_at: _written, ...rest } = found;
        return rest;
      };

      it('a re-import of a poorer chat, user, message or media row changes nothing it does not carry', async () => {
        const chat = { accountId: 1, id: 880_001, type: 'supergroup' as const };
        await db.upsertChat({
          ...chat,
          title: 'Full Crew',
          username: 'fullcrew',
          firstName: 'Full',
          lastName: 'Crew',
          phone: '+100',
          description: 'every field',
          participantsCount: 48,
          isForum: true,
          isArchived: true,
          avatarPhotoId: 'photo-1',
        });
        const user = { id: 880_002 };
        await db.upsertUser({
          ...user,
          username: 'full',
          firstName: 'Ful',
          lastName: 'User',
          phone: '+200',
          isBot: true,
        });
        const message = { accountId: 1, chatId: chat.id, id: 1, date: new Date('2026-01-02T03:04:05Z') };
        await db.upsertMessages([
          {
            ...message,
            senderId: user.id,
            senderName: 'Ful User',
            text: 'every field',
            replyToMsgId: 7,
            replyToTopId: 1,
            replyToText: 'earlier',
            forwardFromId: 9,
            editDate: new Date('2026-01-02T04:00:00Z'),
            rawData: { service_type: 'service' },
            isOutgoing: true,
            isPinned: true,
            poll: {
              question: 'Which?',
              options: [{ text: 'This', voters: 1, chosen: false, correct: false }],
              total_voters: 1,
              closed: false,
              quiz: false,
              multiple_choice: false,
              anonymous: true,
            } as never,
          },
        ]);
        const media = { accountId: 1, chatId: chat.id, messageId: 1, type: 'photo' };
        await db.upsertMedia({
          ...media,
          filePath: 'x/1.jpg',
          fileName: '1.jpg',
          fileSize: 42,
          mimeType: 'image/jpeg',
          width: 10,
          height: 20,
          duration: 1.5,
          contentHash: 'abc',
          downloaded: true,
          downloadAttempts: 2,
          skipReason: 'none',
          downloadDate: new Date('2026-01-03T00:00:00Z'),
        });
        const rows = async () => ({
          chat: await row('chats', sql`account_id = 1 AND id = ${chat.id}`),
          user: await row('users', sql`id = ${user.id}`),
          message: await row('messages', sql`account_id = 1 AND chat_id = ${chat.id} AND id = 1`),
          media: await row('media', sql`account_id = 1 AND chat_id = ${chat.id} AND message_id = 1`),
        });
        const full = await rows();
        // Every column was written (none left at its default), so each is checked below.
        const unset = Object.entries(full).flatMap(([table, values]) =>
          Object.entries(values)
            .filter(([, value]) => value === null)
            .map(([column]) => `${table}.${column}`),
        );
        // Columns other steps write (the backup's sync position and downloads, a deletion, an edit's flag).
        expect(unset.sort()).toEqual(
          [
            'chat.last_synced_message_id',
            'message.deleted_at',
            'message.edit_hide',
            'media.platform_file_id',
            'media.last_attempt_at',
          ].sort(),
        );
        // The poorest source of each: what identifies the row, and nothing else.
        await db.upsertChat(chat);
        await db.upsertUser(user);
        await db.upsertMessages([message]);
        await db.upsertMedia(media);
        expect(await rows()).toEqual(full);
        // A field a source does carry is written, null included.
        await db.upsertChat({ ...chat, username: null, participantsCount: 50 });
        const after = await row('chats', sql`account_id = 1 AND id = ${chat.id}`);
        expect(after).toEqual({ ...full.chat, username: null, participants_count: 50 });
        // The other cases count the fixture's rows.
        const driver = (db as ArchiveSqlStore).driver;
        await driver.run(sql`DELETE FROM media WHERE chat_id = ${chat.id}`);
        await driver.run(sql`DELETE FROM messages WHERE chat_id = ${chat.id}`);
        await driver.run(sql`DELETE FROM chats WHERE id = ${chat.id}`);
        await driver.run(sql`DELETE FROM chat_refs WHERE chat_id = ${chat.id}`);
        await driver.run(sql`DELETE FROM users WHERE id = ${user.id}`);
      });
    });

    describe('channel posts', () => {
      it('a post without a sender has the channel as its sender (id and title), in a channel only', async () => {
        const driver = (db as ArchiveSqlStore).driver;
        const channel = { accountId: 1, id: -1_008_800_003, type: 'channel' as const, title: 'Launch News' };
        const group = { accountId: 1, id: -1_008_800_004, type: 'supergroup' as const, title: 'Launch Chat' };
        for (const chat of [channel, group]) {
          await db.upsertChat(chat);
          await db.upsertMessages([
            {
              accountId: 1,
              chatId: chat.id,
              id: 1,
              date: new Date('2026-01-05T10:00:00Z'),
              senderId: null,
              text: 'post',
            },
            {
              accountId: 1,
              chatId: chat.id,
              id: 2,
              date: new Date('2026-01-05T10:01:00Z'),
              text: 'signed',
              senderName: 'Editor',
            },
          ]);
        }
        const senders = async (chatId: number) =>
          (
            await driver.all(
              sql`SELECT sender_id, sender_name FROM messages WHERE chat_id = ${chatId} ORDER BY id`,
            )
          ).map((r) => [r.sender_id === null ? null : Number(r.sender_id), r.sender_name]);
        expect(await senders(channel.id)).toEqual([
          [channel.id, 'Launch News'],
          [channel.id, 'Editor'],
        ]);
        expect(await senders(group.id)).toEqual([
          [null, null],
          [null, 'Editor'],
        ]);
        for (const chat of [channel, group]) {
          await driver.run(sql`DELETE FROM messages WHERE chat_id = ${chat.id}`);
          await driver.run(sql`DELETE FROM chats WHERE id = ${chat.id}`);
          await driver.run(sql`DELETE FROM chat_refs WHERE chat_id = ${chat.id}`);
        }
      });
    });

    describe('messages of one chat', () => {
      it('returns messages newest first with media, reactions and transcripts', async () => {
        const [photo, voice] = await db.listMessages(rc, { limit: 2, ...view });
        expect(photo).toMatchObject({
          id: 4182,
          edit_date: '2026-03-14T09:24:51Z',
          text: "Photos from Saturday's release party are up, grab the ones you want.",
          reactions: [
            { emoji: '👍', count: 3 },
            { emoji: '🔥', count: 1 },
          ],
          sender_id: FIXTURE.users.marta,
          media: { id: '4182_photo', type: 'photo', mime_type: 'image/jpeg', downloaded: true },
          raw_data: {},
          transcripts: [],
        });
        expect(voice?.transcripts?.[0]).toMatchObject({
          status: 'done',
          language: 'en',
          models: { asr: 'large-v3-turbo' },
        });
      });

      it('returns media as stored, without URLs, and transcripts only when asked', async () => {
        const [photo, voice] = await db.listMessages(rc, { limit: 2, withTranscripts: false });
        expect(photo?.media).toMatchObject({
          file_path: '-1001234567890/-1001234567890_4182_photo.jpg',
          downloaded: true,
        });
        expect(photo?.media).not.toHaveProperty('url');
        expect(photo).not.toHaveProperty('sender_avatar_url');
        expect(voice).not.toHaveProperty('transcripts');
      });

      it('pages by offset and by both cursors without gaps or overlaps', async () => {
        const all = await db.listMessages(rc, { limit: 500, withTranscripts: false });
        expect(all).toHaveLength(FIXTURE.releaseCrewMessages);
        const ids = all.map((m) => m.id);
        const walked: number[] = [];
        let cursor: { date: string; id: number } | undefined;
        for (;;) {
          const page = await db.listMessages(rc, {
            limit: 10,
            withTranscripts: false,
            ...(cursor ? { beforeDate: new Date(cursor.date), beforeId: cursor.id } : {}),
          });
          if (page.length === 0) break;
          walked.push(...page.map((m) => m.id));
          const last = page[page.length - 1];
          if (!last) break;
          cursor = { date: last.date, id: last.id };
        }
        expect(walked).toEqual(ids);
        const second = await db.listMessages(rc, {
          limit: 5,
          offset: 5,
          withTranscripts: false,
        });
        expect(second.map((m) => m.id)).toEqual(ids.slice(5, 10));
        const below = await db.listMessages(rc, {
          limit: 3,
          beforeId: 4150,
          withTranscripts: false,
        });
        expect(below.map((m) => m.id)).toEqual([4149, 4148, 4147]);
        const above = await db.listMessages(rc, {
          limit: 3,
          afterId: 4147,
          withTranscripts: false,
        });
        expect(above.map((m) => m.id)).toEqual([4150, 4149, 4148]);
      });

      it('searches inside a chat and filters a forum topic', async () => {
        const found = await db.listMessages(rc, {
          limit: 50,
          search: 'KEYS TO',
          withTranscripts: false,
        });
        expect(found.map((m) => m.id)).toEqual([4176]);
        const forum = (await db.findChat(ALL_VISIBLE, FIXTURE.forum.ref))?.key as ChatKey;
        const topic = await db.listMessages(forum, {
          limit: 50,
          topicId: 12,
          withTranscripts: false,
        });
        expect(topic.map((m) => m.id)).toEqual([41, 40, 12]);
        expect(topic[0]?.reply_to_top_id).toBe(12);
      });

      it('tells each message how often it was edited and whom and what it answers', async () => {
        const [edited] = await db.listMessages(rc, { limit: 1, afterId: 4181, ...view });
        expect(edited).toMatchObject({
          id: 4182,
          version_count: 1,
          reply_to_msg_id: 4179,
          reply_to_sender_name: 'Erik Sandberg',
          reply_to_media_type: null,
        });
        // An archive of its own, so the counts and feeds the other tests check stay as they are.
        const own = await openTestStore(backend, { seed: false });
        try {
          const odb = own.db;
          await odb.upsertAccount({ id: 1, label: null });
          const ref = await odb.upsertChat({ accountId: 1, id: 770001, type: 'group', title: 'Replies' });
          const chat = (await odb.findChat(ALL_VISIBLE, ref))?.key as ChatKey;
          const base = {
            accountId: 1,
            chatId: 770001,
            senderId: 4401,
            date: new Date('2026-03-20T10:00:00Z'),
          };
          await odb.upsertMessages([
            { ...base, id: 1, senderName: 'Photographer', text: '' },
            { ...base, id: 2, senderName: 'Critic', text: 'Nice shot', replyToMsgId: 1 },
            { ...base, id: 3, senderName: 'Latecomer', text: 'What did I miss?', replyToMsgId: 99 },
          ]);
          await odb.upsertMedia({ accountId: 1, chatId: 770001, messageId: 1, type: 'photo' });
          for (const [i, text] of ['Nice shot!', 'Nice shot!!'].entries()) {
            await odb.editMessage({
              accountId: 1,
              chatId: 770001,
              messageId: 2,
              text,
              editDate: new Date(Date.UTC(2026, 2, 20, 11, i)),
              source: 'sync',
            });
          }
          const page = await odb.listMessages(chat, { limit: 10, ...view });
          expect(
            page.map((m) => [m.id, m.version_count, m.reply_to_sender_name, m.reply_to_media_type]),
          ).toEqual([
            [3, 0, null, null],
            [2, 2, 'Photographer', 'photo'],
            [1, 0, null, null],
          ]);
          expect((await odb.getMessage(chat, 2, view))?.version_count).toBe(2);
        } finally {
          await own.close();
        }
      });

      it('keeps the archive order of messages of one second across batches, chats and a merge', async () => {
        const own = await openTestStore(backend, { seed: false });
        try {
          const odb = own.db;
          await odb.upsertAccount({ id: 1, label: null });
          for (const id of [880001, 880002])
            await odb.upsertChat({ accountId: 1, id, type: 'group', title: 'A' });
          const at = new Date('2026-03-20T10:00:00Z');
          const later = new Date('2026-03-20T10:00:07Z');
          const message = (chatId: number, id: number, date = at) => ({
            accountId: 1,
            chatId,
            id,
            date,
            text: `m${id}`,
          });
          await odb.upsertMessages([message(880001, 1), message(880001, 2), message(880001, 3, later)]);
          await odb.upsertMessages([message(880002, 10), message(880001, 4)]);
          // Written again (an edit seen by a backup): keeps its place.
          await odb.upsertMessages([{ ...message(880001, 1), text: 'm1 again' }]);
          // A batch whose seconds hold more messages than are read at once looks each slot up by itself.
          const driver = (odb as ArchiveSqlStore).driver;
          expect(await freeSlots(driver, [at], 2)).toBeNull();
          await driver.transaction((tx) =>
            insertMessageRows(tx, [message(880002, 11), message(880002, 12)], 2),
          );
          const order = await odb.searchMessages(ALL_VISIBLE, {
            query: 'm',
            limit: 20,
            offset: 0,
            includeTranscripts: false,
          });
          expect(order.results.map((r) => r.id)).toEqual([3, 12, 11, 4, 10, 2, 1]);
        } finally {
          await own.close();
        }
      });

      it('lists versions, pinned messages, topics, stats and avatars', async () => {
        expect(await db.listMessageVersions(rc, 4182, 100)).toEqual([
          {
            chat_id: FIXTURE.releaseCrew.id,
            message_id: 4182,
            text: "Photos from Saturday's release party are up.",
            date: '2026-03-14T09:21:07Z',
            captured_at: '2026-03-14T09:24:53Z',
            source: 'listener',
          },
        ]);
        expect(await db.listMessageVersions(rc, 4176, 100)).toEqual([]);
        expect((await db.listPinnedMessages(rc, view)).map((m) => m.id)).toEqual([4150]);
        const forum = (await db.findChat(ALL_VISIBLE, FIXTURE.forum.ref))?.key as ChatKey;
        expect(
          (await db.listTopics(forum)).map((x) => [
            x.id,
            x.title,
            x.is_pinned,
            x.message_count,
            x.last_message_date,
          ]),
        ).toEqual([
          [12, 'Release 2.4', true, 3, '2026-03-14T00:15:00Z'],
          [1, 'General', false, 2, '2026-03-14T06:45:00Z'],
        ]);
        const perTopic = await db.listMessages(forum, { limit: 500, topicId: 1, ...view });
        expect(perTopic).toHaveLength(2);
        expect(await db.listTopics(rc)).toEqual([]);
        expect(await db.getChatStats(rc)).toEqual({
          chat_id: FIXTURE.releaseCrew.id,
          messages: 57,
          media_files: 7,
          total_size_bytes: 42625,
          total_size_mb: 0.04,
          first_message_date: '2026-03-01T08:00:00Z',
          last_message_date: '2026-03-14T09:21:07Z',
        });
        const avatars = await db.listChatAvatars(rc);
        expect(avatars).toEqual([
          { photo_id: '5879443210987654321', seen_at: '2026-01-08T12:30:00Z' },
          { photo_id: '5512870036482915003', seen_at: '2025-11-03T08:00:00Z' },
        ]);
      });

      it('finds the first message of a local day and the days of a month in a time zone', async () => {
        const forum = (await db.findChat(ALL_VISIBLE, FIXTURE.forum.ref))?.key as ChatKey;
        // Midnight of the 14th is 15:00 UTC the day before in Tokyo and 04:00 UTC in New York.
        const tokyo = await db.findMessageByDate(forum, { date: '2026-03-14', timezone: 'Asia/Tokyo' }, view);
        expect(tokyo?.id).toBe(40);
        const utc = await db.findMessageByDate(forum, { date: '2026-03-14', timezone: 'UTC' }, view);
        expect(utc?.id).toBe(41);
        const newYork = await db.findMessageByDate(
          forum,
          { date: '2026-03-14', timezone: 'America/New_York' },
          view,
        );
        expect(newYork?.id).toBe(42);
        const topic1 = await db.findMessageByDate(
          forum,
          { date: '2026-03-01', timezone: 'UTC', topicId: 1 },
          view,
        );
        expect(topic1?.id).toBe(42);
        expect(await db.findMessageByDate(forum, { date: '2026-04-01', timezone: 'UTC' }, view)).toBeNull();
        expect(await db.listMessageDates(forum, { month: '2026-03', timezone: 'America/New_York' })).toEqual([
          '2026-03-13',
          '2026-03-14',
        ]);
        expect(await db.listMessageDates(forum, { month: '2026-03', timezone: 'Asia/Tokyo' })).toEqual([
          '2026-03-14',
        ]);
        expect(await db.listMessageDates(forum, { month: '2026-03', timezone: 'UTC', topicId: 12 })).toEqual([
          '2026-03-13',
          '2026-03-14',
        ]);
      });
    });

    describe('media, avatars and export', () => {
      const keys = (page: { items: { key: string }[] }) => page.items.map((i) => i.key);

      it('pages the gallery newest first in both directions, by type', async () => {
        const all = await db.listGallery(rc, { limit: 50 });
        expect(keys(all)).toEqual([
          '4182_photo',
          '4181_voice',
          '4144_document',
          '4143_sticker',
          '4142_document',
          '4141_video_note',
          '4140_video',
        ]);
        expect(all.hasMore).toBe(false);
        expect(all.items[0]).toMatchObject({
          messageId: 4182,
          type: 'photo',
          filePath: '-1001234567890/-1001234567890_4182_photo.jpg',
          mimeType: 'image/jpeg',
          downloaded: true,
          date: '2026-03-14T09:21:07Z',
          isDeleted: false,
        });
        const first = await db.listGallery(rc, { limit: 3 });
        expect([keys(first), first.hasMore]).toEqual([['4182_photo', '4181_voice', '4144_document'], true]);
        const second = await db.listGallery(rc, { limit: 3, beforeMessageId: 4144 });
        expect([keys(second), second.hasMore]).toEqual([
          ['4143_sticker', '4142_document', '4141_video_note'],
          true,
        ]);
        const last = await db.listGallery(rc, { limit: 3, beforeMessageId: 4141 });
        expect([keys(last), last.hasMore]).toEqual([['4140_video'], false]);
        const newer = await db.listGallery(rc, { limit: 2, afterMessageId: 4141 });
        expect([keys(newer), newer.hasMore]).toEqual([['4143_sticker', '4142_document'], true]);
        const videos = await db.listGallery(rc, { limit: 50, types: ['video', 'video_note'] });
        expect(keys(videos)).toEqual(['4141_video_note', '4140_video']);
        expect((await db.listGallery(rc, { limit: 50, types: ['nothing'] })).items).toEqual([]);
      });

      it('counts media by type and finds one item', async () => {
        expect(await db.countMediaByType(rc)).toEqual({
          document: 2,
          photo: 1,
          sticker: 1,
          video: 1,
          video_note: 1,
          voice: 1,
        });
        const anna = (await db.findChat(ALL_VISIBLE, FIXTURE.anna.ref))?.key as ChatKey;
        expect(await db.countMediaByType(anna)).toEqual({});
        expect((await db.getMediaItem(rc, 4181, 'voice'))?.mimeType).toBe('audio/ogg');
        expect(await db.getMediaItem(rc, 4181, 'photo')).toBeNull();
        expect(await db.getMediaItem(anna, 4182, 'photo')).toBeNull();
      });

      it('finds the current chat avatar, an older one by photo id, and message senders', async () => {
        expect(await db.findChatAvatar(rc)).toEqual({
          photo_id: '5879443210987654321',
          seen_at: '2026-01-08T12:30:00Z',
        });
        expect((await db.findChatAvatar(rc, '5512870036482915003'))?.seen_at).toBe('2025-11-03T08:00:00Z');
        expect(await db.findChatAvatar(rc, '1')).toBeNull();
        const anna = (await db.findChat(ALL_VISIBLE, FIXTURE.anna.ref))?.key as ChatKey;
        expect(await db.findChatAvatar(anna)).toBeNull();
        expect(await db.findMessageSender(rc, 4182)).toBe(FIXTURE.users.marta);
        expect(await db.findMessageSender(rc, 999_999)).toBeUndefined();
      });

      it('exports a window oldest first in batches, with the versions of the same window', async () => {
        const collect = async <T>(batches: AsyncIterable<T[]>) => {
          const out: T[] = [];
          for await (const batch of batches) out.push(...batch);
          return out;
        };
        const whole = await collect(db.exportMessages(rc, {}));
        expect(whole).toHaveLength(FIXTURE.releaseCrewMessages);
        expect(await collect(db.exportMessages(rc, {}, 7))).toEqual(whole);
        const dates = whole.map((m) => m.date);
        expect([...dates].sort()).toEqual(dates);
        const photo = whole.find((m) => m.id === 4182);
        expect(photo).toMatchObject({
          sender: { id: FIXTURE.users.marta, name: 'Marta Lindqvist', username: 'martal' },
          reply_to: 4179,
          media: { type: 'photo', file_name: 'IMG_20260314_092107.jpg', mime_type: 'image/jpeg' },
        });
        expect(JSON.stringify(photo)).not.toContain('-1001234567890/');
        const voice = whole.find((m) => m.id === 4181);
        expect(voice?.transcripts?.[0]?.language).toBe('en');
        const day = { from: new Date('2026-03-14T00:00:00Z'), to: new Date('2026-03-15T00:00:00Z') };
        const window = await collect(db.exportMessages(rc, day, 2));
        expect(window.length).toBeGreaterThan(0);
        expect(window.every((m) => m.date >= '2026-03-14' && m.date < '2026-03-15')).toBe(true);
        expect(whole.filter((m) => m.date >= '2026-03-14' && m.date < '2026-03-15')).toEqual(window);
        const versions = await collect(db.exportMessageVersions(rc, day));
        expect(versions).toEqual([
          {
            chat_id: FIXTURE.releaseCrew.id,
            message_id: 4182,
            text: "Photos from Saturday's release party are up.",
            date: '2026-03-14T09:21:07Z',
          },
        ]);
        const before = { to: new Date('2026-03-14T00:00:00Z') };
        expect(await collect(db.exportMessageVersions(rc, before))).toEqual([]);
        // A poll and a service message have no text: the export carries them as the chat shows them.
        const family = { accountId: 1, chatId: FIXTURE.family.id, ref: FIXTURE.family.ref };
        const home = await collect(db.exportMessages(family, {}));
        expect(home.find((m) => m.id === 75)).toMatchObject({
          text: null,
          service: { action: 'invite_members', text: 'Erik Sandberg added Anna Berg' },
        });
        const poll = home.find((m) => m.id === 76);
        expect(poll?.poll).toMatchObject({ question: 'Which Sunday works for dinner?', total_voters: 4 });
        expect(poll?.poll?.options.map((o) => o.text)).toEqual(['This Sunday', 'Next Sunday']);
        expect(poll && 'service' in poll).toBe(false);
        expect(photo && ('poll' in photo || 'service' in photo)).toBe(false);
      });
      it('keeps a poll whole, finds it by its question or an option, quotes it in replies, and says pins in words', async () => {
        const own = await openTestStore(backend, { seed: false });
        try {
          const odb = own.db;
          await odb.upsertAccount({ id: 1, label: null });
          const ref = await odb.upsertChat({ accountId: 1, id: 770002, type: 'group', title: 'Polls' });
          const chat = (await odb.findChat(ALL_VISIBLE, ref))?.key as ChatKey;
          const base = { accountId: 1, chatId: 770002, senderId: 4401, senderName: 'Anna' };
          const poll = {
            question: 'Where do we meet?\nPick one',
            options: [
              { text: 'Lighthouse café', voters: 3, chosen: true, correct: false },
              { text: 'Harbour office', voters: 1, chosen: false, correct: false },
            ],
            total_voters: 4,
            closed: true,
            quiz: false,
            multiple_choice: false,
            anonymous: true,
          };
          await odb.upsertMessages([
            { ...base, id: 1, date: new Date('2026-03-20T10:00:00Z'), text: null, poll },
            { ...base, id: 2, date: new Date('2026-03-20T10:01:00Z'), text: 'Lighthouse!', replyToMsgId: 1 },
            {
              ...base,
              id: 3,
              date: new Date('2026-03-20T10:02:00Z'),
              text: null,
              rawData: { export_type: 'service', action: 'pin_message', actor: 'Erik', message_id: 1 },
            },
          ]);
          const [pin, reply, asked] = await odb.listMessages(chat, { limit: 10, ...view });
          expect(asked?.poll).toEqual(poll);
          expect(asked?.service).toBeUndefined();
          expect(reply).toMatchObject({ reply_to_text: 'Where do we meet?', reply_to_media_type: 'poll' });
          expect(pin?.service).toEqual({ action: 'pin_message', text: 'Erik pinned “Where do we meet?”' });
          for (const query of ['harbour', 'meet pick', 'lighthous']) {
            const found = await odb.searchMessages(ALL_VISIBLE, {
              query,
              limit: 5,
              offset: 0,
              includeTranscripts: false,
            });
            expect(
              found.results.map((r) => [r.id, r.text]),
              query,
            ).toEqual(
              query === 'lighthous'
                ? [
                    [2, 'Lighthouse!'],
                    [1, 'Where do we meet?\nPick one\nLighthouse café\nHarbour office'],
                  ]
                : [[1, 'Where do we meet?\nPick one\nLighthouse café\nHarbour office']],
            );
          }
          const inChat = await odb.listMessages(chat, { limit: 10, search: 'harbour', ...view });
          expect(inChat.map((m) => m.id)).toEqual([1]);
          // A vote count changed on the platform: the poll is written again, and found by its new words.
          await odb.upsertMessages([
            {
              ...base,
              id: 1,
              date: new Date('2026-03-20T10:00:00Z'),
              text: null,
              poll: {
                ...poll,
                options: [...poll.options, { text: 'Online', voters: 0, chosen: false, correct: false }],
              },
            },
          ]);
          const online = await odb.searchMessages(ALL_VISIBLE, {
            query: 'online',
            limit: 5,
            offset: 0,
            includeTranscripts: false,
          });
          expect(online.results.map((r) => r.id)).toEqual([1]);
          const harbour = await odb.searchMessages(ALL_VISIBLE, {
            query: 'harbour',
            limit: 5,
            offset: 0,
            includeTranscripts: false,
          });
          expect(harbour.results.map((r) => r.id)).toEqual([1]);
        } finally {
          await own.close();
        }
      });
    });

    describe('in-chat substring search', () => {
      // A chat longer than the search's first window (1,000 messages), so a word is found either by reading
      // on (common) or through the substring index where the backend has one (rare, absent): the pages
      // must be those of reading every message, in every paging mode.
      const chat = { accountId: 1, id: 881_000, type: 'supergroup' as const };
      let key: ChatKey;
      const written: { id: number; date: Date; text: string | null; searched: string }[] = [];
      const SPECIAL: Record<number, string> = {
        17: 'Meet at ZANZIBAR pier',
        230: 'zanzibar again, lower case',
        900: 'Zanzibar? Zanzibar!',
        1200: 'Прибыли в Занзибар 🚀 launch',
        1500: 'Grüße aus MÜNCHEN',
        1800: '100%_done said "hi" back\\slash',
        2590: 'zz top',
      };
      beforeAll(async () => {
        key = { ...chat, chatId: chat.id, ref: await db.upsertChat({ ...chat, title: 'Long Chat' }) };
        const messages = Array.from({ length: 2600 }, (_, i) => {
          const id = i + 1;
          const date = new Date(Date.UTC(2025, 0, 1) + id * 60_000);
          const text =
            SPECIAL[id] ??
            (id % 97 === 0
              ? null
              : `message ${id}${id % 3 === 0 ? ' with coffee' : ''}${id % 80 === 0 ? ' at the harbour' : ''}`);
          const poll =
            id % 97 === 0
              ? {
                  question: `Vote ${id}`,
                  options: [
                    { text: 'Lighthouse', voters: 1, chosen: false, correct: false },
                    {
                      text: id === 1164 ? 'Zanzibar trip' : 'Office',
                      voters: 0,
                      chosen: false,
                      correct: false,
                    },
                  ],
                  total_voters: 1,
                  closed: false,
                  quiz: false,
                  multiple_choice: false,
                  anonymous: true,
                }
              : null;
          const searched = `${text ?? ''} ${poll ? [poll.question, ...poll.options.map((o) => o.text)].join('\n') : ''}`;
          written.push({ id, date, text, searched });
          return { accountId: 1, chatId: chat.id, id, date, text, poll, senderId: 5, senderName: 'Bench' };
        });
        for (let i = 0; i < messages.length; i += 500) await db.upsertMessages(messages.slice(i, i + 500));
      });

      /** What reading every message answers: newest first, the needle anywhere in the casefolded text. */
      const reference = (needle: string, keep: (id: number) => boolean = () => true) =>
        written
          .filter((m) => keep(m.id) && m.searched.toLowerCase().includes(needle.toLowerCase()))
          .sort((a, b) => b.date.getTime() - a.date.getTime())
          .map((m) => m.id);

      const NEEDLES = [
        'zanzibar', // rare, mostly beyond the first window
        'ZANZ', // a prefix in capitals
        'занзибар', // Cyrillic, casefolded
        '🚀 launch',
        'grüße aus münchen',
        'quokka', // absent
        'coffee', // common
        'harbour', // one in eighty: read on for a first page, the index for a deep one
        'zz', // too short for a trigram
        '%_done', // the pattern's own wildcards, literally
        '"hi"',
        'back\\slash',
        'trip', // a poll's option
        'message 2', // spans a space
      ];

      for (const needle of NEEDLES)
        it(`finds ${JSON.stringify(needle)} as reading every message would, at every offset`, async () => {
          for (const [limit, offset] of [
            [50, 0],
            [20, 40],
            [50, 400],
          ] as const) {
            const page = await db.listMessages(key, {
              limit,
              offset,
              search: needle,
              withTranscripts: false,
            });
            expect(
              page.map((m) => m.id),
              `${needle} ${limit}@${offset}`,
            ).toEqual(reference(needle).slice(offset, offset + limit));
          }
        });

      for (const needle of NEEDLES)
        it(`finds ${JSON.stringify(needle)} as reading every message would, page by cursor`, async () => {
          const older = await db.listMessages(key, {
            limit: 30,
            beforeId: 1400,
            search: needle,
            withTranscripts: false,
          });
          expect(older.map((m) => m.id)).toEqual(reference(needle, (id) => id < 1400).slice(0, 30));
          const newer = await db.listMessages(key, {
            limit: 30,
            afterId: 100,
            search: needle,
            withTranscripts: false,
          });
          expect(newer.map((m) => m.id)).toEqual(reference(needle, (id) => id > 100).slice(-30));
          const dated = await db.listMessages(key, {
            limit: 30,
            beforeDate: new Date(Date.UTC(2025, 0, 1) + 1000 * 60_000),
            search: needle,
            withTranscripts: false,
          });
          expect(dated.map((m) => m.id)).toEqual(reference(needle, (id) => id < 1000).slice(0, 30));
        });

      it('follows edits and deletions of the text it searches', async () => {
        await db.upsertMessages([
          {
            accountId: 1,
            chatId: chat.id,
            id: 17,
            date: written[16]?.date as Date,
            text: 'Meet at the quay',
          },
        ]);
        const after = await db.listMessages(key, { limit: 50, search: 'zanzibar', withTranscripts: false });
        expect(after.map((m) => m.id)).not.toContain(17);
        const quay = await db.listMessages(key, { limit: 50, search: 'AT THE QUAY', withTranscripts: false });
        expect(quay.map((m) => m.id)).toEqual([17]);
        await (db as ArchiveSqlStore).driver.run(
          sql`DELETE FROM messages WHERE account_id = 1 AND chat_id = ${chat.id} AND id = 230`,
        );
        const gone = await db.listMessages(key, { limit: 50, search: 'lower case', withTranscripts: false });
        expect(gone).toEqual([]);
      });
    });

    describe('search, tags and the change feed', () => {
      it('finds every word as a prefix, newest first, with the chat attached', async () => {
        const page = await db.searchMessages(ALL_VISIBLE, {
          query: 'rele PART',
          limit: 20,
          offset: 0,
          includeTranscripts: true,
        });
        expect(page.indexed).toBe(true);
        expect(page.results.map((r) => [r.chat.ref, r.id])).toEqual([
          [FIXTURE.releaseCrew.ref, 4182],
          [FIXTURE.forum.ref, 41],
          [FIXTURE.anna.ref, 903],
          [FIXTURE.releaseCrew.ref, 4150],
        ]);
        expect(page.results[1]?.topic_title).toBe('Release 2.4');
        expect(page.results[2]?.chat).toMatchObject({ title: null, first_name: 'Anna', type: 'private' });
      });

      it('finds the same messages, in the same order, after the index is compacted', async () => {
        const queries = ['rele PART', 'seat marta', 'release', 'a'];
        const search = (query: string, offset = 0) =>
          db.searchMessages(ALL_VISIBLE, { query, limit: 3, offset, includeTranscripts: true });
        const before = await Promise.all(queries.flatMap((q) => [search(q), search(q, 2)]));
        await db.compactSearchIndex();
        expect(await Promise.all(queries.flatMap((q) => [search(q), search(q, 2)]))).toEqual(before);
        expect(before.some((page) => page.results.length > 0)).toBe(true);
      });

      it('matches transcripts, ignores diacritics, and pages with has_more', async () => {
        const spoken = await db.searchMessages(ALL_VISIBLE, {
          query: 'seat marta',
          limit: 20,
          offset: 0,
          includeTranscripts: true,
        });
        expect(spoken.results.map((r) => [r.id, r.matched_in])).toEqual([[4181, 'transcript']]);
        const hidden = await db.searchMessages(ALL_VISIBLE, {
          query: 'seat marta',
          limit: 20,
          offset: 0,
          includeTranscripts: false,
        });
        expect(hidden.results).toEqual([]);
        const accent = await db.searchMessages(ALL_VISIBLE, {
          query: 'cafe',
          limit: 20,
          offset: 0,
          includeTranscripts: false,
        });
        expect(accent.results.map((r) => r.id)).toEqual([904]);
        const first = await db.searchMessages(ALL_VISIBLE, {
          query: 'release',
          limit: 3,
          offset: 0,
          includeTranscripts: false,
        });
        expect(first.hasMore).toBe(true);
        const next = await db.searchMessages(ALL_VISIBLE, {
          query: 'release',
          limit: 3,
          offset: 3,
          includeTranscripts: false,
        });
        expect(next.results.map((r) => r.id)).not.toContain(first.results[0]?.id);
      });

      it('cannot be steered by query syntax and falls back for punctuation', async () => {
        for (const query of [
          '"release',
          'release OR keys',
          'NEAR(a b)',
          'text:release',
          "'; DROP TABLE messages; --",
          'a & | ! :*',
        ]) {
          const page = await db.searchMessages(ALL_VISIBLE, {
            query,
            limit: 5,
            offset: 0,
            includeTranscripts: true,
          });
          expect(Array.isArray(page.results)).toBe(true);
        }
        const or = await db.searchMessages(ALL_VISIBLE, {
          query: 'release OR keys',
          limit: 20,
          offset: 0,
          includeTranscripts: false,
        });
        expect(or.results).toEqual([]);
        const punct = await db.searchMessages(ALL_VISIBLE, {
          query: '$',
          limit: 20,
          offset: 0,
          includeTranscripts: false,
        });
        expect(punct.indexed).toBe(false);
        expect(punct.results.map((r) => r.id)).toEqual([4171, 4170, 5002]);
      });

      it('limits search to visible chats', async () => {
        const page = await db.searchMessages(only({ chatRefs: [FIXTURE.anna.ref] }), {
          query: 'release',
          limit: 20,
          offset: 0,
          includeTranscripts: true,
        });
        expect(page.results.map((r) => r.id)).toEqual([903]);
      });

      it('finds hashtags and cashtags as whole tags in each scope', async () => {
        const all = await db.listTaggedMessages(ALL_VISIBLE, {
          tag: '#release',
          scope: 'all',
          limit: 50,
          offset: 0,
        });
        expect(all.truncated).toBe(false);
        expect(all.results.map((r) => r.id)).toEqual([41, 5001, 4150, 4144, 300, 4134, 4124, 4114, 4104]);
        expect(all.results.every((r) => r.matched_in === 'text')).toBe(true);
        const cash = await db.listTaggedMessages(ALL_VISIBLE, {
          tag: '$BTC',
          scope: 'all',
          limit: 50,
          offset: 0,
        });
        expect(cash.results.map((r) => r.id)).toEqual([4171, 4170, 5002]);
        const mine = await db.listTaggedMessages(ALL_VISIBLE, {
          tag: '#Release',
          scope: 'mine',
          limit: 50,
          offset: 0,
        });
        expect(mine.results.map((r) => r.id)).toEqual([4124]);
        const chat = await db.listTaggedMessages(ALL_VISIBLE, {
          tag: '#release',
          scope: 'chat',
          chat: rc,
          limit: 2,
          offset: 1,
        });
        expect(chat.results.map((r) => r.id)).toEqual([4144, 4134]);
        expect(chat.hasMore).toBe(true);
        const notes = await db.listTaggedMessages(ALL_VISIBLE, {
          tag: '#release_notes',
          scope: 'all',
          limit: 50,
          offset: 0,
        });
        expect(notes.results.map((r) => r.id)).toEqual([4171]);
        const visible = await db.listTaggedMessages(only({ accounts: [2] }), {
          tag: '#release',
          scope: 'all',
          limit: 50,
          offset: 0,
        });
        expect(visible.results.map((r) => r.id)).toEqual([5001]);
      });

      it('feeds deletions, edits and transcripts newest first, walkable by before', async () => {
        const page = await db.listChanges(ALL_VISIBLE, { limit: 50, includeTranscripts: true });
        expect(page.changes.map((c) => [c.kind, c.message_id])).toEqual([
          ['transcript', 4181],
          ['edited', 4182],
          ['deleted', 917],
          ['edited', 901],
        ]);
        expect(page.changes[1]).toMatchObject({
          old_text: "Photos from Saturday's release party are up.",
          new_text: "Photos from Saturday's release party are up, grab the ones you want.",
        });
        expect(page.changes[2]).toMatchObject({
          chat: { ref: FIXTURE.anna.ref, title: 'Anna Berg', type: 'private' },
        });
        const walked: string[] = [];
        let before: Date | undefined;
        for (let i = 0; i < 10; i++) {
          const step = await db.listChanges(ALL_VISIBLE, { limit: 1, includeTranscripts: true, before });
          if (step.changes.length === 0) {
            expect(step.nextBefore).toBeNull();
            break;
          }
          walked.push(`${step.changes[0]?.kind}:${step.changes[0]?.message_id}`);
          before = new Date(step.nextBefore as string);
        }
        expect(walked).toEqual(['transcript:4181', 'edited:4182', 'deleted:917', 'edited:901']);
        const since = await db.listChanges(ALL_VISIBLE, {
          limit: 50,
          includeTranscripts: false,
          since: new Date('2026-03-14T08:02:19Z'),
        });
        expect(since.changes.map((c) => c.kind)).toEqual(['edited', 'deleted']);
        const limited = await db.listChanges(only({ chatRefs: [FIXTURE.anna.ref] }), {
          limit: 50,
          includeTranscripts: true,
        });
        expect(limited.changes.map((c) => c.message_id)).toEqual([917, 901]);
      });
    });

    describe('figures and status', () => {
      it('sums cached figures over the visible chats', async () => {
        expect(await db.getArchiveFigures(ALL_VISIBLE)).toEqual({
          chats: 6,
          messages: 74,
          media_files: 7,
          total_size_bytes: 42_625,
          total_size_mb: 0.04,
          stats_calculated_at: '2026-03-14T06:04:51Z',
          last_backup_time: '2026-03-14T06:00:12Z',
        });
        const anna = await db.getArchiveFigures(only({ chatRefs: [FIXTURE.anna.ref] }));
        expect([anna.chats, anna.messages, anna.media_files]).toEqual([1, 4, 0]);
      });

      it('reports backup, listener, media and database state', async () => {
        await db.setMetadata('listener_heartbeat_at', '2026-03-14T10:00:00.000Z');
        await db.setMetadata('listener_active_since', '2026-03-10T18:04:40.000Z');
        const status = await db.getArchiveStatus({
          maxDownloadAttempts: 2,
          now: new Date('2026-03-14T10:02:00Z'),
        });
        expect(status.backup).toEqual({ last_run: '2026-03-14T06:00:12Z', in_progress: false });
        expect(status.listeners).toEqual([
          { account_id: 1, active: true, active_since: '2026-03-10T18:04:40Z' },
          { account_id: 2, active: false, active_since: null },
        ]);
        expect(status.media).toEqual({ downloaded: 7, pending: 0, exhausted: 1, skipped: 1 });
        expect(status.database.backend).toBe(backend);
        expect(status.database.size_bytes).toBeGreaterThan(0);
        expect(await db.getRuntimeFlags(new Date('2026-03-14T10:02:00Z'))).toEqual({
          backupInProgress: false,
          listeners: status.listeners,
        });
        const later = await db.getArchiveStatus({
          maxDownloadAttempts: 5,
          now: new Date('2026-03-14T10:03:01Z'),
        });
        expect(later.listeners[0]?.active).toBe(false);
        expect(later.media.pending).toBe(1);
        expect(await db.probe()).toBe(true);
      });
    });

    describe('viewer access data', () => {
      it('creates, updates and deletes viewer accounts, ending their sessions', async () => {
        const alice = await db.createViewerAccount({
          username: 'alice',
          passwordHash: 'h1',
          salt: 's1',
          allowedAccounts: null,
          allowedChatRefs: [FIXTURE.anna.ref],
          isActive: true,
          noDownload: false,
          createdBy: 'admin',
        });
        expect(alice).toMatchObject({
          username: 'alice',
          allowed_chat_refs: [FIXTURE.anna.ref],
          is_active: true,
        });
        await expect(
          db.createViewerAccount({
            ...{ username: 'alice', passwordHash: 'x', salt: 'y' },
            allowedAccounts: null,
            allowedChatRefs: null,
            isActive: true,
            noDownload: false,
            createdBy: null,
          }),
        ).rejects.toBeInstanceOf(StoreConflictError);
        expect((await db.findViewerAccountByUsername('alice'))?.password_hash).toBe('h1');
        const s = await db.createSession({
          username: 'alice',
          role: 'viewer',
          allowedAccounts: null,
          allowedChatRefs: [FIXTURE.anna.ref],
          noDownload: false,
          viewerAccountId: alice.id,
          lifetimeMs: 86_400_000,
        });
        const same = await db.updateViewerAccount(alice.id, { isActive: true });
        expect(same?.changed).toEqual([]);
        expect(await db.getSession(s.key)).not.toBeNull();
        const changed = await db.updateViewerAccount(alice.id, { noDownload: true, allowedChatRefs: [] });
        expect(changed?.changed.sort()).toEqual(['allowed_chat_refs', 'no_download']);
        expect(changed?.account).toMatchObject({ no_download: true, allowed_chat_refs: [] });
        expect(changed?.ended.map((e) => e.id)).toEqual([s.session.id]);
        expect(await db.getSession(s.key)).toBeNull();
        await db.createViewerAccount({
          username: 'bob',
          passwordHash: 'h',
          salt: 's',
          allowedAccounts: [1],
          allowedChatRefs: null,
          isActive: true,
          noDownload: false,
          createdBy: 'admin',
        });
        await expect(db.updateViewerAccount(alice.id, { username: 'bob' })).rejects.toBeInstanceOf(
          StoreConflictError,
        );
        expect(await db.updateViewerAccount(99999, { isActive: false })).toBeNull();
        expect((await db.listViewerAccounts()).map((a) => a.username)).toEqual(['alice', 'bob']);
        expect((await db.deleteViewerAccount(alice.id))?.account.username).toBe('alice');
        expect(await db.getViewerAccount(alice.id)).toBeNull();
      });

      it('stores id lists beyond 2^53 exactly', async () => {
        const ids = IntegerList.from64([1, 1152921504606846977n, 9223372036854775807n]);
        const exact = ['1', '1152921504606846977', '9223372036854775807'];
        const wide = await db.createViewerAccount({
          username: 'wide-ids',
          passwordHash: 'h',
          salt: 's',
          allowedAccounts: ids,
          allowedChatRefs: null,
          isActive: true,
          noDownload: false,
          createdBy: 'admin',
        });
        const reread = (await db.getViewerAccount(wide.id))?.allowed_accounts;
        expect(reread).toBeInstanceOf(IntegerList);
        expect((reread as IntegerList).exactValues()).toEqual(exact);
        const unchanged = await db.updateViewerAccount(wide.id, { allowedAccounts: ids });
        expect(unchanged?.changed).toEqual([]);
        const next = IntegerList.from64([1152921504606846978n]);
        const changed = await db.updateViewerAccount(wide.id, { allowedAccounts: next });
        expect(changed?.changed).toEqual(['allowed_accounts']);
        expect((changed?.account.allowed_accounts as IntegerList | undefined)?.exactValues()).toEqual([
          '1152921504606846978',
        ]);
        const session = await db.createSession({
          username: 'wide-ids',
          role: 'viewer',
          allowedAccounts: ids,
          allowedChatRefs: null,
          noDownload: false,
          lifetimeMs: 60_000,
        });
        expect(
          ((await db.getSession(session.key))?.allowedAccounts as IntegerList | undefined)?.exactValues(),
        ).toEqual(exact);
        // As a visibility: the ids beyond 2^53 match no account and break no query on either backend.
        const vis = only({ accounts: ids });
        expect((await db.listAccounts(vis)).map((a) => a.id)).toEqual([1]);
        expect((await db.listChats(vis, { limit: 50, offset: 0 })).total).toBeGreaterThan(0);
        await db.endSession(session.key);
        await db.deleteViewerAccount(wide.id);
      });

      it('keeps at most ten sessions per user, ending the oldest', async () => {
        const keys: string[] = [];
        const base = Date.parse('2026-03-14T10:00:00Z');
        let evicted: string[] = [];
        for (let i = 0; i < 11; i++) {
          const s = await db.createSession({
            username: 'carol',
            role: 'master',
            allowedAccounts: null,
            allowedChatRefs: null,
            noDownload: false,
            lifetimeMs: 30 * 86_400_000,
            now: new Date(base + i * 1000),
          });
          keys.push(s.key);
          evicted = s.evicted.map((e) => e.id);
          expect(s.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
        }
        const now = new Date(base + 60_000);
        expect(await db.getSession(keys[0] as string, now)).toBeNull();
        expect(evicted).toHaveLength(1);
        expect(await db.getSession(keys[1] as string, now)).not.toBeNull();
        expect(await db.getSession(keys[10] as string, now)).toMatchObject({
          username: 'carol',
          role: 'master',
        });
        expect(await db.getSession(keys[10] as string, new Date(base + 31 * 86_400_000))).toBeNull();
        const ended = await db.endSession(keys[10] as string);
        expect(ended?.username).toBe('carol');
        expect(await db.endSession(keys[10] as string)).toBeNull();
        expect(await db.endSessionsOfUser('carol')).toHaveLength(9);
      });

      it('ends every session but the kept one, and reports which are still live', async () => {
        const make = (username: string) =>
          db.createSession({
            username,
            role: 'viewer',
            allowedAccounts: null,
            allowedChatRefs: null,
            noDownload: false,
            lifetimeMs: 3_600_000,
          });
        const mine = await make('dave');
        const other = await make('erin');
        const third = await make('dave');
        expect((await db.liveSessionIds([mine.session.id, other.session.id, 'nope'])).sort()).toEqual(
          [mine.session.id, other.session.id].sort(),
        );
        // Other tests of this suite may have left sessions in the database: what is proved here holds
        // whatever they left (every session but the kept one ends, whoever created it).
        const ended = await db.endAllSessions({ keepKey: mine.key });
        const endedIds = ended.map((e) => e.id);
        expect(endedIds).toEqual(expect.arrayContaining([other.session.id, third.session.id]));
        expect(endedIds).not.toContain(mine.session.id);
        expect(await db.endAllSessions({ keepKey: mine.key })).toEqual([]);
        expect(await db.getSession(mine.key)).not.toBeNull();
        expect(await db.liveSessionIds([other.session.id])).toEqual([]);
        const expired = await db.purgeExpiredSessions(new Date(Date.now() + 7_200_000));
        expect(expired.map((e) => e.id)).toContain(mine.session.id);
      });

      it('stores share tokens hashed, counts uses, and ends sessions on scope changes', async () => {
        const created = await db.createShareToken({
          label: '  family ',
          allowedChatRefs: [FIXTURE.releaseCrew.ref],
          noDownload: true,
          expiresAt: new Date('2026-12-31T23:59:59Z'),
          createdBy: 'admin',
        });
        expect(created.token).toMatch(/^[0-9a-f]{64}$/);
        expect(created.label).toBe('family');
        expect(JSON.stringify(await db.listShareTokens())).not.toContain(created.token);
        const used = await db.redeemShareToken(created.token, new Date('2026-03-14T10:00:00Z'));
        expect(used).toMatchObject({ id: created.id, use_count: 1, last_used_at: '2026-03-14T10:00:00Z' });
        expect(await db.redeemShareToken(created.token, new Date('2027-01-01T00:00:00Z'))).toBeNull();
        expect(await db.redeemShareToken('0'.repeat(64))).toBeNull();
        expect(await db.redeemShareToken('not hex')).toBeNull();
        const session = await db.createSession({
          username: `token:${created.label}`,
          role: 'token',
          allowedAccounts: null,
          allowedChatRefs: created.allowed_chat_refs,
          noDownload: true,
          sourceTokenId: created.id,
          lifetimeMs: 3_600_000,
        });
        const relabel = await db.updateShareToken(created.id, { label: 'kin' });
        expect(relabel).toMatchObject({ changed: ['label'], ended: [] });
        const revoke = await db.updateShareToken(created.id, { isRevoked: true });
        expect(revoke?.ended.map((e) => e.id)).toEqual([session.session.id]);
        expect(await db.redeemShareToken(created.token, new Date('2026-03-15T00:00:00Z'))).toBeNull();
        expect((await db.getShareToken(created.id))?.use_count).toBe(1);
        expect((await db.deleteShareToken(created.id))?.token.id).toBe(created.id);
        expect(await db.deleteShareToken(created.id)).toBeNull();
      });

      it('appends and filters the audit log, stores settings and metadata', async () => {
        await db.appendAudit({
          username: 'admin',
          role: 'master',
          action: 'viewer_created',
          endpoint: '/api/admin/viewers',
        });
        await db.appendAudit({
          username: 'admin',
          role: 'master',
          action: 'setting_updated:theme',
          endpoint: '/api/admin/settings/theme',
        });
        await db.appendAudit({
          username: 'other',
          role: 'master',
          action: 'viewer_created',
          endpoint: null,
          ipAddress: '10.0.0.2',
        });
        const all = await db.listAudit({ limit: 10, offset: 0 });
        expect(all.map((e) => e.action)).toEqual([
          'viewer_created',
          'setting_updated:theme',
          'viewer_created',
        ]);
        expect(
          (await db.listAudit({ limit: 10, offset: 0, username: 'admin', action: 'viewer_created' })).length,
        ).toBe(1);
        expect((await db.listAudit({ limit: 1, offset: 1 }))[0]?.action).toBe('setting_updated:theme');
        await db.appendAudit({
          username: 'admin',
          role: 'master',
          action: 'token_created:2',
          endpoint: null,
        });
        await db.appendAudit({
          username: 'admin',
          role: 'master',
          action: 'Token_created:3',
          endpoint: null,
        });
        await db.appendAudit({ username: 'admin', role: 'master', action: 'token_creat%', endpoint: null });
        const actions = async (action: string) =>
          (await db.listAudit({ limit: 10, offset: 0, action })).map((e) => e.action);
        // A prefix, case as given, with no wildcard characters on either backend.
        expect(await actions('token_created')).toEqual(['token_created:2']);
        expect(await actions('token_creat%')).toEqual(['token_creat%']);
        expect(await actions('token_creat_')).toEqual([]);
        expect(await actions('setting')).toEqual(['setting_updated:theme']);
        expect(await actions('viewer_created:')).toEqual([]);
        expect(await db.setSetting('theme', 'midnight')).toEqual({ key: 'theme', value: 'midnight' });
        await db.setSetting('theme', 'daylight');
        expect(await db.getSettings()).toEqual({ theme: 'daylight' });
        expect(await db.getSetting('missing')).toBeNull();
        await db.setMetadata('vapid_public_key', 'BPk');
        expect(await db.getMetadata('vapid_public_key')).toBe('BPk');
        expect(await db.deletePushSubscriptionsOfUser('nobody')).toBe(0);
      });
    });
  });
}
