/**
 * The live-update queries (events by reference, webhook ids, push subscriptions, transcripts), as cases
 * every backend's test file runs.
 */
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { type CaseSkips, sharedCases } from '../../../common/testing/cases';
import { FIXTURE } from '../../demo/dataset';
import type { Backend } from '../store';
import { ALL_VISIBLE } from '../store';
import { openTestStore, type TestStore } from './databases';

const RC = { accountId: 1, chatId: FIXTURE.releaseCrew.id, ref: FIXTURE.releaseCrew.ref };
const at = (iso: string) => new Date(iso);

export function liveQueryCases(backend: Backend, skip?: CaseSkips): void {
  const it = sharedCases(`live-update queries on ${backend}`, skip);

  describe(`live-update queries on ${backend}`, () => {
    let store: TestStore;
    beforeAll(async () => {
      store = await openTestStore(backend);
    });
    afterAll(() => store.close());

    it('keeps large event payloads by id and webhook delivery ids once', async () => {
      const id = await store.db.saveLiveEvent('{"big":true}', at('2026-03-14T10:00:00Z'));
      expect(await store.db.readLiveEvent(id)).toBe('{"big":true}');
      expect(await store.db.readLiveEvent(id + 1000)).toBeNull();
      expect(await store.db.recordWebhookDelivery('msg_1')).toBe(true);
      expect(await store.db.recordWebhookDelivery('msg_1')).toBe(false);
      expect(await store.db.chatKeysOf(FIXTURE.releaseCrew.id, null)).toEqual([RC]);
      expect(await store.db.chatKeysOf(FIXTURE.releaseCrew.id, 2)).toEqual([]);
    });

    it('stores push subscriptions per user and endpoint, scoped to a chat or not', async () => {
      const base = {
        p256dh: 'key',
        auth: 'auth',
        sessionId: null,
        allowedAccounts: null,
        allowedChatRefs: [RC.ref],
        noDownload: false,
        userAgent: null,
      };
      await store.db.savePushSubscription({
        ...base,
        endpoint: 'https://push.example/a',
        username: 'marta',
        accountId: null,
        chatId: null,
        chatRef: null,
      });
      await store.db.savePushSubscription({
        ...base,
        endpoint: 'https://push.example/b',
        username: 'jonas',
        accountId: 1,
        chatId: FIXTURE.anna.id,
        chatRef: FIXTURE.anna.ref,
        noDownload: true,
      });
      const forRc = await store.db.pushSubscriptionsFor(RC);
      expect(forRc.map((s) => s.endpoint)).toEqual(['https://push.example/a']);
      expect(forRc[0]).toMatchObject({ username: 'marta', allowedChatRefs: [RC.ref], noDownload: false });
      const forAnna = await store.db.pushSubscriptionsFor({
        accountId: 1,
        chatId: FIXTURE.anna.id,
        ref: FIXTURE.anna.ref,
      });
      expect(forAnna.map((s) => s.endpoint).sort()).toEqual([
        'https://push.example/a',
        'https://push.example/b',
      ]);
      expect(await store.db.deletePushSubscription('https://push.example/a', 'jonas')).toBe(false);
      expect(await store.db.deletePushSubscription('https://push.example/a', 'marta')).toBe(true);
      await store.db.endSessionsOfUser('jonas');
      expect(
        await store.db.pushSubscriptionsFor({ accountId: 1, chatId: FIXTURE.anna.id, ref: FIXTURE.anna.ref }),
      ).toEqual([]);
    });

    it('queues one open transcript per media, sends it, and completes it by job id', async () => {
      const media = await store.db.findMediaByKey(RC, FIXTURE.voiceMediaKey);
      expect(media).toMatchObject({ type: 'voice', downloaded: true, messageId: FIXTURE.voiceMessageId });
      if (!media) throw new Error('no media');
      const [copy] = await store.db.findMediaByStorageId(media.storageId);
      expect(copy).toMatchObject({ storageId: media.storageId, ref: RC.ref });
      const first = await store.db.queueTranscript(media, 'marta', at('2026-03-14T10:00:00Z'));
      const again = await store.db.queueTranscript(media, 'marta', at('2026-03-14T10:01:00Z'));
      expect(first.created).toBe(true);
      expect(again).toEqual({ transcript: first.transcript, created: false });
      expect(await store.db.transcriptAsks('marta', at('2026-03-14T09:55:00Z'))).toEqual({
        recent: [at('2026-03-14T10:00:00Z')],
        open: 1,
      });
      const queued = await store.db.listQueuedTranscripts(10);
      expect(queued.map((q) => q.transcriptId)).toEqual([first.transcript.id]);
      await store.db.markTranscriptSubmitted(first.transcript.id, 'job_1', 'akou');
      expect(await store.db.listQueuedTranscripts(10)).toEqual([]);
      const done = await store.db.completeTranscript({
        jobId: 'job_1',
        contentHash: null,
        status: 'done',
        error: null,
        text: 'Hello from the harbour',
        language: 'en',
        engineName: 'whisper.cpp',
        engineVersion: '1.7.6',
        confidence: 0.9,
        durationS: 6.4,
        source: null,
        completedAt: at('2026-03-14T10:05:00Z'),
      });
      expect(done).toBe(first.transcript.id);
      expect(await store.db.transcriptTarget(first.transcript.id)).toEqual({
        transcriptId: first.transcript.id,
        status: 'done',
        accountId: 1,
        chatId: RC.chatId,
        messageId: FIXTURE.voiceMessageId,
      });
      const [latest] = await store.db.listTranscriptsOf(media);
      expect(latest).toMatchObject({ status: 'done', text: 'Hello from the harbour', source: 'akou' });
      const feed = await store.db.listChanges(ALL_VISIBLE, { limit: 1, includeTranscripts: true });
      expect(feed.changes[0]).toMatchObject({ kind: 'transcript', text: 'Hello from the harbour' });
      const nobody = await store.db.completeTranscript({
        jobId: 'job_unknown',
        contentHash: null,
        status: 'failed',
        error: 'x',
        text: null,
        language: null,
        engineName: null,
        engineVersion: null,
        confidence: null,
        durationS: null,
        source: null,
        completedAt: at('2026-03-14T10:06:00Z'),
      });
      expect(nobody).toBeNull();
    });
  });
}
