/**
 * The backup engine against the fake platform, on both backends: after every step the database is held
 * against what the platform holds.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/logger';
import type { ArchiveSqlStore } from '../store/archive-store';
import { backupState } from '../store/backup-state';
import { sql } from '../store/sql';
import { openTestStore, TEST_BACKENDS, type TestStore } from '../store/testing/databases';
import { type BackupConfig, loadBackupConfig } from './config';
import { AllAccountsFailedError, type EngineDeps, runBackup } from './engine';
import { FakePlatform } from './fake-platform';
import type { PlatformMessage } from './platform';

const PHONE = '+15550001';
const OTHER = '+15550002';
const GROUP = -1001234567;
const PRIVATE = 4242;
const t0 = Date.UTC(2026, 0, 10, 12);

const photo = Buffer.alloc(150_000, 7);
photo.write('a photo of more than two chunks', 0);

function message(chatId: number, id: number, extra: Partial<PlatformMessage> = {}): PlatformMessage {
  return {
    chatId,
    id,
    date: new Date(t0 + id * 60_000),
    senderId: 1,
    senderName: 'Ana',
    text: `message ${id}`,
    ...extra,
  };
}

function world(): FakePlatform {
  const platform = new FakePlatform();
  platform.addAccount(PHONE, { id: 111, firstName: 'Ana' });
  platform.addChat(PHONE, { id: GROUP, type: 'supergroup', title: 'Group', isForum: true }, [
    { id: 1, title: 'General' },
  ]);
  platform.addChat(PHONE, { id: PRIVATE, type: 'private', firstName: 'Bo' });
  platform.putMessages(PHONE, GROUP, [
    ...Array.from({ length: 30 }, (_, i) => message(GROUP, i + 1, { replyToTopId: 1 })),
    message(GROUP, 31, {
      text: null,
      media: { kind: 'photo', fileId: 'f-photo', mimeType: 'image/jpeg', size: photo.length },
    }),
  ]);
  platform.putMessages(
    PHONE,
    PRIVATE,
    Array.from({ length: 5 }, (_, i) => message(PRIVATE, i + 1)),
  );
  platform.files.set('f-photo', photo);
  platform.setAvatar(PHONE, GROUP, 'p1', Buffer.from('avatar one'));
  return platform;
}

describe.each(TEST_BACKENDS)('backup engine on %s', (backend) => {
  let t: TestStore;
  let media: string;
  let platform: FakePlatform;
  let config: BackupConfig;
  const waits: number[] = [];
  const stores: TestStore[] = [];

  beforeEach(async () => {
    t = await openTestStore(backend, { seed: false });
    stores.push(t);
    media = mkdtempSync(path.join(os.tmpdir(), 'specyard-backup-'));
    platform = world();
    config = {
      ...loadBackupConfig({
        MSGR_ACCOUNT_1_PHONE: PHONE,
        BACKUP_PATH: media,
        MEDIA_MAX_DOWNLOAD_ATTEMPTS: '3',
      }),
      database: t.config,
    };
    waits.length = 0;
  });
  afterEach(() => rmSync(media, { recursive: true, force: true }));
  afterAll(async () => {
    for (const s of stores) await s.close();
  });

  const deps = (extra: Partial<EngineDeps> = {}): EngineDeps => ({
    config,
    platform,
    store: t.db,
    state: backupState((t.db as ArchiveSqlStore).driver),
    logger: silentLogger(),
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...extra,
  });
  const driver = () => (t.db as ArchiveSqlStore).driver;
  const archived = async (chatId: number) =>
    (
      await driver().all(sql`SELECT id, text, is_deleted FROM messages WHERE chat_id = ${chatId} ORDER BY id`)
    ).map((r) => ({
      id: Number(r.id),
      text: r.text,
      deleted: Boolean(Number(r.is_deleted) || r.is_deleted === true),
    }));
  const truth = (chatId: number) =>
    [...(platform.account(PHONE).chats.get(chatId)?.messages.values() ?? [])]
      .map((m) => m.id)
      .sort((a, b) => a - b);

  it('copies every chat, message, topic, avatar and media file on the first run', async () => {
    const [summary] = await runBackup(deps());
    expect(summary?.messages).toBe(36);
    expect((await archived(GROUP)).map((m) => m.id)).toEqual(truth(GROUP));
    expect((await archived(PRIVATE)).map((m) => m.id)).toEqual(truth(PRIVATE));
    const [row] = await driver().all(
      sql`SELECT file_path, downloaded, content_hash FROM media WHERE chat_id = ${GROUP}`,
    );
    expect(Boolean(Number(row?.downloaded) || row?.downloaded === true)).toBe(true);
    const onDisk = readFileSync(path.join(media, String(row?.file_path)));
    expect(onDisk.equals(photo)).toBe(true);
    expect(row?.content_hash).toBe(createHash('sha256').update(photo).digest('hex'));
    const topics = await driver().all(sql`SELECT title FROM forum_topics WHERE chat_id = ${GROUP}`);
    expect(topics.map((r) => r.title)).toEqual(['General']);
    const avatars = await driver().all(
      sql`SELECT photo_id, file_path FROM avatar_history WHERE chat_id = ${GROUP}`,
    );
    expect(avatars.map((r) => r.photo_id)).toEqual(['p1']);
    expect(readFileSync(path.join(media, String(avatars[0]?.file_path)), 'utf8')).toBe('avatar one');
    expect(await t.db.getMetadata('backup_in_progress')).toBe('0');
    expect(await t.db.getMetadata('backup_last_started_at')).not.toBeNull();
  });

  it('then stores only what changed: new messages, edits as versions, deletions, avatar changes', async () => {
    await runBackup(deps());
    platform.putMessages(PHONE, PRIVATE, [
      message(PRIVATE, 6),
      message(PRIVATE, 2, { text: 'edited', editDate: new Date(t0 + 999_000) }),
    ]);
    platform.deleteMessages(PHONE, PRIVATE, [3]);
    platform.setAvatar(PHONE, GROUP, 'p2', Buffer.from('avatar two'));
    const [summary] = await runBackup(deps());
    expect(summary).toMatchObject({ messages: 1, edits: 1, deletions: 1 });
    const rows = await archived(PRIVATE);
    expect(rows.map((m) => m.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows.find((m) => m.id === 2)?.text).toBe('edited');
    expect(rows.find((m) => m.id === 3)?.deleted).toBe(true);
    const versions = await driver().all(sql`SELECT text FROM message_versions WHERE chat_id = ${PRIVATE}`);
    expect(versions.map((r) => r.text)).toEqual(['message 2']);
    const avatars = await driver().all(
      sql`SELECT photo_id FROM avatar_history WHERE chat_id = ${GROUP} ORDER BY id`,
    );
    expect(avatars.map((r) => r.photo_id)).toEqual(['p1', 'p2']);
  });

  it('follows reactions: new, unchanged, changed and removed emoji', async () => {
    platform.putMessages(PHONE, PRIVATE, [message(PRIVATE, 4, { reactions: [{ emoji: '👍', count: 2 }] })]);
    await runBackup(deps());
    const live = async () =>
      (
        await driver().all(
          sql`SELECT emoji, count, removed_at FROM reactions WHERE chat_id = ${PRIVATE} AND message_id = 4
            ORDER BY emoji`,
        )
      ).map((r) => `${r.emoji}:${r.count}:${r.removed_at === null ? 'live' : 'removed'}`);
    expect(await live()).toEqual(['👍:2:live']);
    await runBackup(deps());
    expect(await live()).toEqual(['👍:2:live']);
    platform.putMessages(PHONE, PRIVATE, [message(PRIVATE, 4, { reactions: [{ emoji: '🔥', count: 1 }] })]);
    await runBackup(deps());
    expect(await live()).toEqual(['👍:2:removed', '🔥:1:live']);
  });

  it('deletes for good in hard mode and holds back a mass deletion', async () => {
    await runBackup(deps());
    config = { ...config, deletionMode: 'hard' };
    platform.deleteMessages(PHONE, PRIVATE, [4]);
    platform.deleteMessages(
      PHONE,
      GROUP,
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    const [summary] = await runBackup(deps());
    expect(summary).toMatchObject({ deletions: 1, heldBackDeletions: 12 });
    expect((await archived(PRIVATE)).map((m) => m.id)).toEqual([1, 2, 3, 5]);
    expect((await archived(GROUP)).filter((m) => !m.deleted)).toHaveLength(31);
  });

  it('resumes a broken download, and skips a file for good after every attempt failed', async () => {
    platform.brokenDownloads.set('f-photo', 1);
    const [first] = await runBackup(deps());
    expect(first).toMatchObject({ mediaFailed: 1, mediaDownloaded: 0 });
    const [second] = await runBackup(deps());
    expect(second).toMatchObject({ mediaDownloaded: 1 });
    const [row] = await driver().all(sql`SELECT file_path FROM media WHERE chat_id = ${GROUP}`);
    expect(readFileSync(path.join(media, String(row?.file_path))).equals(photo)).toBe(true);

    platform.putMessages(PHONE, PRIVATE, [
      message(PRIVATE, 7, { media: { kind: 'voice', fileId: 'missing' } }),
    ]);
    for (let run = 0; run < 3; run++) await runBackup(deps());
    const [last] = await runBackup(deps());
    expect(last).toMatchObject({ mediaExhausted: 1, mediaFailed: 0 });
  });

  it('verifies downloaded files: one gone from disk is downloaded again on the next run', async () => {
    await runBackup(deps());
    const [row] = await driver().all(sql`SELECT file_path FROM media WHERE chat_id = ${GROUP}`);
    const file = path.join(media, String(row?.file_path));
    rmSync(file);
    const [noticed] = await runBackup(deps());
    expect(noticed).toMatchObject({ mediaMissing: 1, mediaDownloaded: 0 });
    const [again] = await runBackup(deps());
    expect(again).toMatchObject({ mediaMissing: 0, mediaDownloaded: 1 });
    expect(readFileSync(file).equals(photo)).toBe(true);
  });

  it('keeps the marker before a message that fails, and passes it over after two failed runs', async () => {
    platform.putMessages(PHONE, PRIVATE, [
      message(PRIVATE, 6, { date: new Date(Number.NaN) }),
      message(PRIVATE, 7),
    ]);
    await runBackup(deps());
    expect((await archived(PRIVATE)).map((m) => m.id)).toEqual([1, 2, 3, 4, 5]);
    const [second] = await runBackup(deps());
    expect(second?.passedOver).toBe(1);
    expect((await archived(PRIVATE)).map((m) => m.id)).toEqual([1, 2, 3, 4, 5, 7]);
    const failures = JSON.parse(String(await t.db.getMetadata(`message_failures_${PRIVATE}`)));
    expect(failures).toEqual({ ids: [6], total: 1 });
  });

  it('waits out a short rate limit and moves a chat with a long one to the next run', async () => {
    platform.floodWaits.set(`history:${GROUP}`, [5]);
    platform.floodWaits.set(`history:${PRIVATE}`, [7200]);
    const [summary] = await runBackup(deps());
    expect(waits).toEqual([5000]);
    expect(summary?.deferredChats).toBe(1);
    expect(await archived(PRIVATE)).toEqual([]);
    expect((await archived(GROUP)).map((m) => m.id)).toEqual(truth(GROUP));
    await runBackup(deps());
    expect((await archived(PRIVATE)).map((m) => m.id)).toEqual(truth(PRIVATE));
  });

  it('goes on when one of two accounts fails, and fails only when every account failed', async () => {
    platform.addAccount(OTHER, { id: 222 });
    platform.addChat(OTHER, { id: 99, type: 'private' });
    platform.putMessages(OTHER, 99, [message(99, 1)]);
    config = {
      ...config,
      accounts: [...config.accounts, { index: 2, phone: OTHER, label: 'work', chatIds: null }],
    };
    platform.failingAccounts.add(PHONE);
    const summaries = await runBackup(deps());
    expect(summaries.map((s) => s.messages)).toEqual([1]);
    platform.failingAccounts.add(OTHER);
    await expect(runBackup(deps())).rejects.toBeInstanceOf(AllAccountsFailedError);
    expect(await t.db.getMetadata('backup_in_progress')).toBe('0');
  });

  it('stops after the current chat when signalled, and the next run completes with nothing twice', async () => {
    const stop = new AbortController();
    let chats = 0;
    const store = new Proxy(t.db, {
      get(target, name, receiver) {
        if (name === 'upsertChat') {
          return async (...args: Parameters<typeof target.upsertChat>) => {
            if (++chats === 1) stop.abort();
            return target.upsertChat(...args);
          };
        }
        return Reflect.get(target, name, receiver);
      },
    });
    await runBackup(deps({ store, signal: stop.signal }));
    expect(chats).toBe(1);
    await runBackup(deps());
    for (const chat of [GROUP, PRIVATE]) expect((await archived(chat)).map((m) => m.id)).toEqual(truth(chat));
    const [{ n } = { n: 0 }] = await driver().all(sql`SELECT count(*) AS n FROM messages`);
    expect(Number(n)).toBe(36);
  });
});
