/** The messages of one chat: pages, edits, history; in-chat substring search. */
import { beforeAll, describe, expect } from 'vitest';
import { FIXTURE } from '../../../demo/dataset';
import type { ArchiveSqlStore } from '../../archive-store';
import { freeSlots, insertMessageRows } from '../../queries/ingest';
import { sql } from '../../sql';
import { ALL_VISIBLE, type ArchiveDatabase, type ChatKey } from '../../store';
import { openTestStore } from '../databases';
import { type CaseIt, type StoreUnderTest, view } from './common';

export function messagesCases(it: CaseIt, under: StoreUnderTest): void {
  let db: ArchiveDatabase;
  let rc: ChatKey;
  const backend = under.backend;
  beforeAll(() => {
    ({ db, rc } = under);
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
}
