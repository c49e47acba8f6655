/**
 * The platform-bound commands on the fake platform, on both backends: their output lines and exit codes,
 * what they change in the archive, the scheduler's heartbeat, ticks without overlap and clean stop, and
 * the real-time listener writing and publishing live updates.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../../common/cli/command';
import type { Env } from '../../common/env';
import { createLogger, silentLogger } from '../../common/logger';
import type { ArchiveSqlStore } from '../store/archive-store';
import { backupState } from '../store/backup-state';
import { openArchiveStore } from '../store/open';
import { sql } from '../store/sql';
import { createTestDatabase, openTestStore, TEST_BACKENDS, type TestStore } from '../store/testing/databases';
import {
  authCommand,
  backfillTopicsCommand,
  backupCommand,
  fillGapsCommand,
  nextTick,
  reclassifyRoundVideosCommand,
  scheduleCommand,
} from './commands';
import { loadBackupConfig } from './config';
import { FakePlatform } from './fake-platform';
import { type ArchiveEvent, Listener } from './listener';
import type { Platform, PlatformMessage, PlatformSession } from './platform';

const PHONE = '+15550001';
const CHAT = -1009876;
const t0 = Date.UTC(2026, 4, 1);
const msg = (id: number, extra: Partial<PlatformMessage> = {}): PlatformMessage => ({
  chatId: CHAT,
  id,
  date: new Date(t0 + id * 1000),
  text: `m${id}`,
  ...extra,
});

function capture(answers: string[] = []): CliIo & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return {
    lines,
    errors,
    out: (line) => lines.push(line),
    err: (line) => errors.push(line),
    errWrite: () => undefined,
    ask: async () => answers.shift() ?? '',
  };
}

describe.each(TEST_BACKENDS)('platform-bound commands on %s', (backend) => {
  let t: TestStore;
  let dir: string;
  let env: Env;
  let platform: FakePlatform;
  const opened: TestStore[] = [];

  beforeEach(async () => {
    t = await openTestStore(backend, { seed: false });
    opened.push(t);
    dir = mkdtempSync(path.join(os.tmpdir(), 'specyard-backup-cli-'));
    const db =
      t.config.backend === 'sqlite' ? { DATABASE_PATH: t.config.path } : { DATABASE_URL: t.config.url };
    env = {
      ...db,
      MSGR_ACCOUNT_1_PHONE: PHONE,
      BACKUP_PATH: path.join(dir, 'backups'),
      HEARTBEAT_FILE: path.join(dir, 'hb'),
    };
    platform = new FakePlatform();
    platform.addAccount(PHONE, { id: 7 });
    platform.addChat(PHONE, { id: CHAT, type: 'supergroup', title: 'Club' });
    platform.putMessages(
      PHONE,
      CHAT,
      Array.from({ length: 100 }, (_, i) => msg(i + 1)),
    );
  });
  afterAll(async () => {
    for (const s of opened) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ids = async () =>
    (
      await (t.db as ArchiveSqlStore).driver.all(
        sql`SELECT id FROM messages WHERE chat_id = ${CHAT} ORDER BY id`,
      )
    ).map((r) => Number(r.id));
  const overrides = () => ({ platform, logger: silentLogger() });

  it('backup: backs up every account once and says so; fails with exit 1 when every account fails', async () => {
    const io = capture();
    const afterRuns: number[] = [];
    expect(
      await backupCommand(env, io, {
        ...overrides(),
        afterRun: async (summaries) => {
          afterRuns.push(summaries.length);
        },
      }),
    ).toBe(0);
    expect(io.lines).toEqual(['Backup complete: 1 account(s), 100 new message(s)']);
    expect(afterRuns).toEqual([1]);
    expect(await ids()).toHaveLength(100);
    platform.failingAccounts.add(PHONE);
    const failed = capture();
    expect(await backupCommand(env, failed, overrides())).toBe(1);
    expect(failed.errors[0]).toMatch(/^Backup failed: /);
  });

  it('fill-gaps: recovers holes of at least the threshold and reports the hole before the first message', async () => {
    await backupCommand(env, capture(), overrides());
    const driver = (t.db as ArchiveSqlStore).driver;
    await driver.run(
      sql`DELETE FROM messages WHERE chat_id = ${CHAT} AND (id BETWEEN 20 AND 79 OR id <= 5 OR id BETWEEN 90 AND 92)`,
    );
    const io = capture();
    expect(await fillGapsCommand({ threshold: 50 }, env, io, overrides())).toBe(0);
    expect(io.lines.slice(0, 5)).toEqual([
      'Gap-fill complete:',
      '  Chats scanned: 1',
      '  Chats with gaps: 1',
      '  Total gaps found: 1',
      '  Messages recovered: 60',
    ]);
    expect(io.lines[5]).toBe(
      `  Chat ${CHAT}: 1 gap(s), 60 recovered, 5 before the first archived message (not filled)`,
    );
    const now = await ids();
    expect(now).toContain(50);
    expect(now).not.toContain(91);
    expect(now).not.toContain(3);
    const smaller = capture();
    expect(await fillGapsCommand({ threshold: 2 }, env, smaller, overrides())).toBe(0);
    expect(smaller.lines[4]).toBe('  Messages recovered: 3');
  });

  it('backfill-topics: re-reads the chat from the start without media, and refuses a chat not archived', async () => {
    await backupCommand(env, capture(), overrides());
    platform.putMessages(PHONE, CHAT, [msg(10, { replyToTopId: 3, text: 'in topic' })]);
    const io = capture();
    expect(await backfillTopicsCommand({ chatId: CHAT }, env, io, overrides())).toBe(0);
    const [row] = await (t.db as ArchiveSqlStore).driver.all(
      sql`SELECT reply_to_top_id FROM messages WHERE chat_id = ${CHAT} AND id = 10`,
    );
    expect(Number(row?.reply_to_top_id)).toBe(3);
    const missing = capture();
    expect(await backfillTopicsCommand({ chatId: 12345 }, env, missing, overrides())).toBe(1);
    expect(missing.lines).toEqual(['Chat 12345 is not in the archive.']);
  });

  it('reclassify-round-videos: retypes only what the platform calls round videos, and changes nothing on a dry run', async () => {
    platform.putMessages(PHONE, CHAT, [
      msg(101, { media: { kind: 'video', fileId: 'v1' } }),
      msg(102, { media: { kind: 'video', fileId: 'v2' } }),
    ]);
    platform.files.set('v1', Buffer.from('v1'));
    platform.files.set('v2', Buffer.from('v2'));
    await backupCommand(env, capture(), overrides());
    platform.putMessages(PHONE, CHAT, [msg(101, { media: { kind: 'video_note', fileId: 'v1' } })]);
    const types = async () =>
      (
        await (t.db as ArchiveSqlStore).driver.all(
          sql`SELECT message_id, type, id FROM media ORDER BY message_id`,
        )
      ).map((r) => `${r.type}:${r.id}`);
    const dry = capture();
    expect(await reclassifyRoundVideosCommand({ dryRun: true }, env, dry, overrides())).toBe(0);
    expect(dry.lines).toEqual([
      '[DRY RUN] Round-video reclassification complete:',
      '  Chats scanned: 1',
      '  Round videos found: 1',
      '  Rows re-typed: 0',
    ]);
    expect(await types()).toEqual([`video:${CHAT}_101_video`, `video:${CHAT}_102_video`]);
    const io = capture();
    expect(await reclassifyRoundVideosCommand({ chatId: CHAT }, env, io, overrides())).toBe(0);
    expect(io.lines[3]).toBe('  Rows re-typed: 1');
    expect(await types()).toEqual([`video_note:${CHAT}_101_video_note`, `video:${CHAT}_102_video`]);
  });

  it('auth: logs in with the code and two-step password, skips an authorised account, and fails on another phone', async () => {
    platform.account(PHONE).authorized = false;
    platform.account(PHONE).password = 'secret-pass';
    const io = capture(['12345', 'secret-pass']);
    expect(await authCommand(env, io, overrides())).toBe(0);
    expect(io.lines).toEqual(['Account 1: authorized']);
    const again = capture();
    expect(await authCommand(env, again, overrides())).toBe(0);
    expect(again.lines).toEqual(['Account 1: already authorized']);
    const wrong = capture(['00000']);
    platform.account(PHONE).authorized = false;
    expect(await authCommand(env, wrong, overrides())).toBe(1);
    expect(wrong.errors[0]).toMatch(/^Authentication failed: /);
    platform.addAccount('+15559999', { id: 8 }, { authorized: false });
    platform.account('+15559999').user.phone = '+15550000';
    const other = capture(['12345']);
    expect(await authCommand({ ...env, MSGR_ACCOUNT_1_PHONE: '+15559999' }, other, overrides())).toBe(1);
    expect(other.errors).toEqual(['Account 1: the logged-in phone differs from the configured one']);
    expect(existsSync(String(t.config.backend === 'sqlite' ? t.config.path : ''))).toBe(
      t.config.backend === 'sqlite',
    );
  });

  it('schedule: heartbeat first, one backup at once, listener writes live updates, clean stop on signal', async () => {
    const stop = new AbortController();
    const events: ArchiveEvent[] = [];
    const io = capture();
    const done = scheduleCommand({ ...env, ENABLE_LISTENER: 'true', SCHEDULE: '0 0 1 1 *' }, io, {
      ...overrides(),
      signal: stop.signal,
      publish: async (event) => {
        events.push(event);
      },
    });
    await expect.poll(async () => (await ids()).length, { timeout: 45_000 }).toBe(100);
    expect(readFileSync(String(env.HEARTBEAT_FILE), 'utf8')).toMatch(/^\d{4}-/);
    platform.emit(PHONE, { kind: 'new_message', message: msg(101, { text: 'live' }) });
    await expect.poll(async () => (await ids()).length, { timeout: 45_000 }).toBe(101);
    await expect.poll(() => events.map((e) => e.type)).toEqual(['new_message']);
    expect(events[0]).toMatchObject({
      chat_id: CHAT,
      account_id: 1,
      data: { message: { id: 101, text: 'live' } },
    });
    stop.abort();
    expect(await done).toBe(0);
    expect(io.lines).toEqual(['Scheduler started: 0 0 1 1 *']);
    expect(platform.account(PHONE).listeners.size).toBe(0);
    const flags = await (t.db as ArchiveSqlStore).driver.all(
      sql`SELECT key, value FROM metadata WHERE key LIKE 'listener_%' ORDER BY key`,
    );
    expect(flags.map((r) => [r.key, r.value])).toEqual([
      ['listener_active_since', ''],
      ['listener_heartbeat_at', ''],
    ]);
  });

  it('schedule: a fast cron never starts a run while the previous one goes on', async () => {
    const lines: string[] = [];
    const logger = createLogger('test', 'info', { write: (line: string) => void lines.push(line) });
    let active = 0;
    let most = 0;
    let runs = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: Platform = {
      ...platform,
      isAuthorized: (a) => platform.isAuthorized(a),
      login: (a, p) => platform.login(a, p),
      sendCode: (a) => platform.sendCode(a),
      verifyCode: (a, c, p) => platform.verifyCode(a, c, p),
      connect: async (account) => {
        active++;
        runs++;
        most = Math.max(most, active);
        if (runs === 1) await gate;
        const session = await platform.connect(account);
        return {
          ...session,
          me: () => session.me(),
          dialogs: () => session.dialogs(),
          folders: () => session.folders(),
          history: (c, a) => session.history(c, a),
          messagesByIds: (c, i) => session.messagesByIds(c, i),
          download: (c, m, media, o) => session.download(c, m, media, o),
          avatar: (c) => session.avatar(c),
          topics: (c) => session.topics(c),
          disconnect: async () => {
            active--;
            await session.disconnect();
          },
        } as PlatformSession;
      },
    };
    const stop = new AbortController();
    const done = scheduleCommand({ ...env, SCHEDULE: '* * * * * *' }, capture(), {
      platform: slow,
      logger,
      signal: stop.signal,
    });
    const skipped = () => lines.filter((l) => l.includes('this tick is skipped')).length;
    await expect.poll(skipped, { timeout: 45_000 }).toBeGreaterThanOrEqual(2);
    expect(runs).toBe(1);
    release();
    await expect.poll(() => runs, { timeout: 45_000 }).toBeGreaterThanOrEqual(2);
    stop.abort();
    expect(await done).toBe(0);
    expect(most).toBe(1);
    expect(await ids()).toHaveLength(100);
  });

  it('schedule: without the platform settings (compose from its examples), migrates, says what is missing and waits healthy', async () => {
    const fresh = await createTestDatabase(backend);
    const db =
      fresh.config.backend === 'sqlite'
        ? { DATABASE_PATH: fresh.config.path }
        : { DATABASE_URL: fresh.config.url };
    const io = capture();
    const warnings: string[] = [];
    const logger = createLogger('archive', 'warn', { write: (line: string) => warnings.push(line) });
    const stop = new AbortController();
    const done = scheduleCommand(
      {
        ...db,
        MSGR_API_ID: '',
        MSGR_API_HASH: '',
        MSGR_ACCOUNT_1_PHONE: '',
        HEARTBEAT_FILE: path.join(dir, 'hb2'),
      },
      io,
      { logger, signal: stop.signal },
    );
    // The schedule migrates its database first: a second under load is not enough for that.
    await expect.poll(() => io.lines, { timeout: 15_000 }).toContain('Scheduler waiting: not configured');
    expect(warnings.join('')).toContain(
      'the backup is not configured: set MSGR_API_ID, MSGR_API_HASH, MSGR_ACCOUNT_1_PHONE',
    );
    expect(existsSync(path.join(dir, 'hb2'))).toBe(true);
    stop.abort();
    expect(await done).toBe(0);
    const migrated = await openArchiveStore(fresh.config, silentLogger());
    try {
      expect(await migrated.schemaRevision()).toBeGreaterThan(0);
    } finally {
      await migrated.close();
      await fresh.drop();
    }
  });

  it('schedule: refuses an invalid SCHEDULE before connecting', async () => {
    const io = capture();
    expect(await scheduleCommand({ ...env, SCHEDULE: 'not a cron' }, io, overrides())).toBe(1);
    expect(io.errors[0]).toMatch(/^Scheduler failed: SCHEDULE: invalid cron expression/);
    expect(platform.connections).toBe(0);
  });
});

describe('the next scheduled tick', () => {
  it('follows the cron expression', () => {
    expect(nextTick('0 */6 * * *', new Date('2026-05-01T07:10:00Z')).toISOString()).toBe(
      '2026-05-01T12:00:00.000Z',
    );
  });
});

describe.each(TEST_BACKENDS)('real-time listener on %s', (backend) => {
  it('writes edits, pins, reactions and deletions, holds back a mass deletion, and publishes each event', async () => {
    const t = await openTestStore(backend, { seed: false });
    try {
      const timers: (() => void)[] = [];
      const events: ArchiveEvent[] = [];
      const config = { ...loadBackupConfig({ MASS_OPERATION_THRESHOLD: '3' }), database: t.config };
      await t.db.upsertAccount({ id: 1, platformUserId: 7 });
      await t.db.upsertChat({ accountId: 1, id: 55, type: 'private' });
      await t.db.upsertMessages(
        Array.from({ length: 10 }, (_, i) => ({
          accountId: 1,
          chatId: 55,
          id: i + 1,
          date: new Date(t0),
          text: `m${i + 1}`,
        })),
      );
      const listener = new Listener(
        {
          config,
          store: t.db,
          state: backupState((t.db as ArchiveSqlStore).driver),
          logger: silentLogger(),
          publish: async (e) => {
            events.push(e);
          },
          setTimer: (fn) => timers.push(fn),
        },
        1,
      );
      await listener.handle({
        kind: 'edit',
        message: { chatId: 55, id: 2, date: new Date(t0), text: 'changed', editDate: new Date(t0 + 5000) },
      });
      await listener.handle({ kind: 'pin', chatId: 55, messageIds: [3], pinned: true });
      await listener.handle({
        kind: 'reaction',
        chatId: 55,
        messageId: 3,
        reactions: [{ emoji: '👍', count: 2 }],
      });
      await listener.handle({ kind: 'delete', chatId: null, messageIds: [4] });
      for (const fn of timers.splice(0)) fn();
      await listener.idle();
      await listener.handle({ kind: 'delete', chatId: 55, messageIds: [6, 7, 8] });
      for (const fn of timers.splice(0)) fn();
      await listener.idle();
      const rows = await (t.db as ArchiveSqlStore).driver.all(
        sql`SELECT id, text, is_pinned, is_deleted FROM messages ORDER BY id`,
      );
      const flag = (v: unknown) => v === true || Number(v) === 1;
      expect(rows.find((r) => Number(r.id) === 2)?.text).toBe('changed');
      expect(flag(rows.find((r) => Number(r.id) === 3)?.is_pinned)).toBe(true);
      expect(rows.filter((r) => flag(r.is_deleted)).map((r) => Number(r.id))).toEqual([4]);
      expect(events.map((e) => e.type)).toEqual(['edit', 'pin', 'reaction', 'delete']);
      expect(events[3]).toMatchObject({ chat_id: 55, data: { message_id: 4, deletion_mode: 'soft' } });
    } finally {
      await t.close();
    }
  });
});
