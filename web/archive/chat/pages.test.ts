/**
 * The chat view's paging and live merge (pages.ts) against a live viewer on a free port, without a
 * browser: every page the view can ask for, walked to the chat's ends, against what the store holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArchiveClient } from '../../../generated/archive/client';
import type { components } from '../../../generated/archive/types';
import {
  FIXTURE,
  login,
  MASTER,
  startTestViewer,
  type TestViewer,
} from '../../../src/archive/http/test-viewer';
import { type ArchiveApi, applyLive, ChatPages, merge, PAGE } from './pages';

type Message = components['schemas']['Message'];

const LONG = { accountId: 1, id: -1002000000123, type: 'supergroup' as const, title: 'Long chat' };
const COUNT = 180;

let viewer: TestViewer;
let api: ArchiveApi;
let longRef: string;

beforeAll(async () => {
  viewer = await startTestViewer();
  longRef = await viewer.db.upsertChat(LONG);
  // 180 messages, two in each minute, ids not in date order at the end (a late import), one day apart in
  // the middle.
  await viewer.db.upsertMessages(
    Array.from({ length: COUNT }, (_, i) => ({
      accountId: 1,
      chatId: LONG.id,
      id: i < 170 ? i + 1 : 1000 - i,
      date: new Date(Date.UTC(2025, 4, 1, 8, Math.floor(i / 2)) + (i >= 90 ? 86_400_000 : 0)),
      text: `message ${i + 1}`,
      senderId: 5,
      senderName: 'Pager',
    })),
  );
  const cookie = await login(viewer.url, MASTER.username, MASTER.password);
  api = createArchiveClient({ baseUrl: viewer.url, headers: { cookie: `viewer_auth=${cookie}` } });
});

afterAll(async () => viewer?.close());

/** Every message of the long chat, oldest first, as the store orders them. */
const everything = async () =>
  (
    await viewer.db.listMessages(
      { accountId: 1, chatId: LONG.id, ref: longRef },
      { limit: 500, withTranscripts: false },
    )
  )
    .map((m) => m.id)
    .reverse();

describe('the pages of a chat view', () => {
  it('walks from the newest page to the oldest message, each once, in the archive order', async () => {
    const pages = new ChatPages(api, longRef, null);
    const newest = await pages.latest();
    expect(newest.messages).toHaveLength(PAGE);
    expect(newest.hasOlder).toBe(true);
    expect(newest.hasNewer).toBe(false);
    let held = newest.messages;
    let more = newest.hasOlder;
    while (more) {
      const step = await pages.older(held[0] as Message);
      held = merge(held, step.messages);
      more = step.more;
    }
    expect(held.map((m) => m.id)).toEqual(await everything());
  });

  it('holds a page on each side of a message it jumps to, and walks on to the newest', async () => {
    const all = await everything();
    const target = all[100] as number;
    const pages = new ChatPages(api, longRef, null);
    const around = await pages.around(target);
    const ids = around.messages.map((m) => m.id);
    expect(ids).toContain(target);
    expect(around.hasOlder).toBe(true);
    let held = around.messages;
    let more = around.hasNewer;
    while (more) {
      const step = await pages.newer(held.at(-1) as Message);
      held = merge(held, step.messages);
      more = step.more;
    }
    // The view jumps and pages on by id: from the page before the target, every message up to the newest.
    const from = Math.min(...held.map((m) => m.id));
    expect(held.map((m) => m.id)).toEqual(all.filter((id) => id >= from));
    expect(from).toBe(target - PAGE);
  });

  it('keeps to one topic of a forum', async () => {
    const all = await new ChatPages(api, FIXTURE.forum.ref, null).latest();
    const topics = [...new Set(all.messages.map((m) => m.reply_to_top_id).filter((t) => t !== null))];
    expect(topics.length).toBeGreaterThan(0);
    const topic = topics[0] as number;
    const one = await new ChatPages(api, FIXTURE.forum.ref, topic).latest();
    expect(one.messages.length).toBeGreaterThan(0);
    expect(one.messages.length).toBeLessThan(all.messages.length);
    expect(one.messages.every((m) => m.reply_to_top_id === topic || m.id === topic)).toBe(true);
  });

  it('reads a message again as the server has it now', async () => {
    const pages = new ChatPages(api, longRef, null);
    expect((await pages.message(42))?.text).toBe('message 42');
    expect(await pages.message(999_999)).toBeUndefined();
  });
});

describe('live updates merged into the messages held', () => {
  const at = (id: number, minute: number, text = `m${id}`): Message =>
    ({
      id,
      date: new Date(Date.UTC(2025, 0, 1, 0, minute)).toISOString(),
      text,
      reactions: [],
    }) as unknown as Message;
  const held = [at(1, 1), at(2, 2), at(3, 3)];

  it('adds a new message at the end only when the newest are shown, and once', () => {
    const event = { type: 'new_message', chat_ref: 'x', message: at(4, 4) } as never;
    expect(applyLive(held, event, true).map((m) => m.id)).toEqual([1, 2, 3, 4]);
    expect(applyLive(held, event, false).map((m) => m.id)).toEqual([1, 2, 3]);
    expect(applyLive(applyLive(held, event, true), event, true).map((m) => m.id)).toEqual([1, 2, 3, 4]);
  });

  it('edits, deletes (marked or gone), pins and reacts on the message named, and nothing else', () => {
    const edited = applyLive(
      held,
      { type: 'edit', message_id: 2, new_text: 'changed', edit_date: 'd' } as never,
      true,
    );
    expect(edited.map((m) => m.text)).toEqual(['m1', 'changed', 'm3']);
    const soft = applyLive(
      held,
      { type: 'delete', message_id: 3, deletion_mode: 'soft', deleted_at: 'd' } as never,
      true,
    );
    expect(soft.map((m) => m.is_deleted ?? false)).toEqual([false, false, true]);
    const hard = applyLive(
      held,
      { type: 'delete', message_id: 3, deletion_mode: 'hard', deleted_at: 'd' } as never,
      true,
    );
    expect(hard.map((m) => m.id)).toEqual([1, 2]);
    const pinned = applyLive(held, { type: 'pin', message_ids: [1, 3], pinned: true } as never, true);
    expect(pinned.map((m) => m.is_pinned ?? false)).toEqual([true, false, true]);
    const reacted = applyLive(
      held,
      { type: 'reaction', message_id: 1, reactions: [{ emoji: '👍', count: 2 }] } as never,
      true,
    );
    expect(reacted[0]?.reactions).toEqual([{ emoji: '👍', count: 2 }]);
    expect(held.map((m) => m.text)).toEqual(['m1', 'm2', 'm3']);
  });
});
