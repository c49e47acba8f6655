/** Media, avatars and the exports. */
import { beforeAll, describe, expect } from 'vitest';
import { FIXTURE } from '../../../demo/dataset';
import { ALL_VISIBLE, type ArchiveDatabase, type ChatKey } from '../../store';
import { openTestStore } from '../databases';
import { type CaseIt, type StoreUnderTest, view } from './common';

export function mediaCases(it: CaseIt, under: StoreUnderTest): void {
  let db: ArchiveDatabase;
  let rc: ChatKey;
  const backend = under.backend;
  beforeAll(() => {
    ({ db, rc } = under);
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
}
