/** Accounts, chats and folders; what each source may change of them; channel posts. */
import { beforeAll, describe, expect } from 'vitest';
import { FIXTURE } from '../../../demo/dataset';
import type { ArchiveSqlStore } from '../../archive-store';
import { raw, type Sql, sql } from '../../sql';
import { ALL_VISIBLE, type ArchiveDatabase } from '../../store';
import { type CaseIt, only, type StoreUnderTest } from './common';

export function chatsCases(it: CaseIt, under: StoreUnderTest): void {
  let db: ArchiveDatabase;
  beforeAll(() => {
    ({ db } = under);
  });

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
}
