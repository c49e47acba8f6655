/** Search across chats, tags and the change feed. */
import { beforeAll, describe, expect } from 'vitest';
import { FIXTURE } from '../../../demo/dataset';
import { ALL_VISIBLE, type ArchiveDatabase, type ChatKey } from '../../store';
import { type CaseIt, only, type StoreUnderTest } from './common';

export function searchCases(it: CaseIt, under: StoreUnderTest): void {
  let db: ArchiveDatabase;
  let rc: ChatKey;
  beforeAll(() => {
    ({ db, rc } = under);
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
}
