/**
 * `auth_noninteractive` and `restore_chat` on the fake platform: the two-step login without a terminal,
 * and archived messages (with their files) re-sent from the archive on both backends, nothing sent on a
 * dry run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../../common/cli/command';
import { parseCommandArgs } from '../../common/cli/command';
import type { Env } from '../../common/env';
import { silentLogger } from '../../common/logger';
import { backupCommands } from '../cli/backup-commands';
import { openTestStore, TEST_BACKENDS, type TestStore } from '../store/testing/databases';
import { backupCommand } from './commands';
import { FakePlatform } from './fake-platform';
import type { PlatformMessage } from './platform';
import { authNoninteractiveCommand, type RestoreFlags, restoreArgs, restoreChatCommand } from './scripts';

/** restore_chat's flags as the command line parses them, then checked: the one path a run takes. */
const parseRestoreArgs = (args: string[]) =>
  restoreArgs(
    parseCommandArgs(
      backupCommands.find((c) => c.name === 'restore_chat') as (typeof backupCommands)[number],
      args,
    ).values as RestoreFlags,
  );

const PHONE = '+15550001';
const CHAT = -1004321;
const DEST = -1008765;
const day = (d: number) => new Date(Date.UTC(2026, 2, d, 12));

function capture(): CliIo & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return {
    lines,
    errors,
    out: (line) => lines.push(line),
    err: (line) => errors.push(line),
    errWrite: () => undefined,
  };
}

describe('auth_noninteractive', () => {
  let platform: FakePlatform;
  const env: Env = { MSGR_PHONE: PHONE };
  const run = (args: string[], io = capture()) =>
    authNoninteractiveCommand(args, env, io, { platform }).then((code) => ({ code, io }));

  beforeEach(() => {
    platform = new FakePlatform();
    platform.addAccount(PHONE, { id: 7 }, { authorized: false, password: 'two-step' });
  });

  it('sends the code, then verifies it with the two-step password', async () => {
    expect((await run(['verify', '12345'])).io.errors[0]).toMatch(/^Authentication failed: No login code/);
    const sent = await run(['send']);
    expect(sent.code).toBe(0);
    expect(sent.io.lines).toEqual(['Code sent. Run: auth_noninteractive verify CODE [2FA_PASSWORD]']);
    const noPassword = await run(['verify', '12345']);
    expect(noPassword.code).toBe(1);
    expect(noPassword.io.errors[0]).toMatch(/two-step verification/);
    expect(await platform.isAuthorized({ index: 1, phone: PHONE })).toBe(false);
    const wrong = await run(['verify', '99999', 'two-step']);
    expect(wrong.code).toBe(1);
    const ok = await run(['verify', '12345', 'two-step']);
    expect(ok.code).toBe(0);
    expect(ok.io.lines).toEqual(['Authorized.']);
    expect(await platform.isAuthorized({ index: 1, phone: PHONE })).toBe(true);
  });

  it('answers a malformed call with usage, exit 2', async () => {
    for (const args of [[], ['verify'], ['send', 'extra'], ['login']]) {
      const { code, io } = await run(args);
      expect(code).toBe(2);
      expect(io.errors[0]).toMatch(/^usage: archive-cli auth_noninteractive/);
    }
  });

  it('fails without a configured account', async () => {
    const io = capture();
    expect(await authNoninteractiveCommand(['send'], {}, io, { platform })).toBe(1);
    expect(io.errors[0]).toMatch(/^Authentication failed: no account configured/);
  });
});

describe('restore_chat arguments', () => {
  it('reads the chat, the window, limit, delay and switches', () => {
    expect(
      parseRestoreArgs([
        '--source-chat',
        '-100123',
        '--dest-chat',
        '-100456',
        '--after',
        '2026-03-02',
        '--limit',
        '5',
        '--delay',
        '0.5',
        '--no-media',
        '--dry-run',
      ]),
    ).toEqual({
      source: -100123,
      dest: -100456,
      after: new Date('2026-03-02T00:00:00Z'),
      limit: 5,
      delaySeconds: 0.5,
      media: false,
      dryRun: true,
    });
    expect(parseRestoreArgs(['--chat', '42'])).toMatchObject({ source: 42, dest: 42, delaySeconds: 2 });
    for (const bad of [
      [],
      ['--source-chat', '1'],
      ['--chat', 'abc'],
      ['--chat', '1', '--dest-chat', '2'],
      ['--chat', '1', '--after', '2026-13-01'],
      ['--chat', '1', '--limit', '0'],
      ['--chat', '1', '--delay', 'soon'],
      ['--chat', '1', '--bogus'],
    ]) {
      expect(() => parseRestoreArgs(bad), bad.join(' ')).toThrow();
    }
  });
});

describe.each(TEST_BACKENDS)('restore_chat on %s', (backend) => {
  let t: TestStore;
  let dir: string;
  let env: Env;
  let platform: FakePlatform;
  const opened: TestStore[] = [];
  const photo = Buffer.from('a small photo');

  beforeEach(async () => {
    t = await openTestStore(backend, { seed: false });
    opened.push(t);
    dir = mkdtempSync(path.join(os.tmpdir(), 'specyard-restore-'));
    const db =
      t.config.backend === 'sqlite' ? { DATABASE_PATH: t.config.path } : { DATABASE_URL: t.config.url };
    env = { ...db, MSGR_PHONE: PHONE, BACKUP_PATH: path.join(dir, 'backups') };
    platform = new FakePlatform();
    platform.addAccount(PHONE, { id: 7 });
    platform.addChat(PHONE, { id: CHAT, type: 'supergroup', title: 'Source' });
    platform.addChat(PHONE, { id: DEST, type: 'supergroup', title: 'Destination' });
    const messages: PlatformMessage[] = [
      { chatId: CHAT, id: 1, date: day(1), text: 'first' },
      { chatId: CHAT, id: 2, date: day(2), action: 'pin', text: null },
      {
        chatId: CHAT,
        id: 3,
        date: day(3),
        text: 'with a photo',
        media: { kind: 'photo', fileId: 'p3', mimeType: 'image/jpeg' },
      },
      { chatId: CHAT, id: 4, date: day(4), text: 'fourth' },
      { chatId: CHAT, id: 5, date: day(5), text: 'fifth' },
    ];
    platform.putMessages(PHONE, CHAT, messages);
    platform.files.set('p3', photo);
    expect(await backupCommand(env, capture(), { platform, logger: silentLogger() })).toBe(0);
  });
  afterAll(async () => {
    for (const s of opened) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const restore = (args: string[], sleeps: number[] = []) => {
    const io = capture();
    return restoreChatCommand(parseRestoreArgs(args), env, io, {
      platform,
      logger: silentLogger(),
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    }).then((code) => ({ code, io }));
  };

  it('sends nothing on a dry run and lists what it would send', async () => {
    const { code, io } = await restore(['--chat', String(CHAT), '--dry-run']);
    expect(code).toBe(0);
    expect(platform.sent).toEqual([]);
    expect(io.lines).toEqual([
      `[DRY RUN] would send message 1 (${day(1).toISOString()})`,
      `[DRY RUN] would send message 3 (${day(3).toISOString()}) with photo`,
      `[DRY RUN] would send message 4 (${day(4).toISOString()})`,
      `[DRY RUN] would send message 5 (${day(5).toISOString()})`,
      '[DRY RUN] Restore complete:',
      '  Messages to send: 4',
      '  Messages skipped: 1',
    ]);
  });

  it('re-sends the window oldest first with the archived file, waiting --delay between sends', async () => {
    const sleeps: number[] = [];
    const { code, io } = await restore(
      [
        '--source-chat',
        String(CHAT),
        '--dest-chat',
        String(DEST),
        '--after',
        '2026-03-02',
        '--before',
        '2026-03-05',
        '--delay',
        '1.5',
      ],
      sleeps,
    );
    expect(code, io.errors.join('\n')).toBe(0);
    expect(platform.sent).toEqual([
      { chatId: DEST, text: 'with a photo', fileName: `${CHAT}_3_photo.jpg` },
      { chatId: DEST, text: 'fourth', fileName: null },
    ]);
    expect(sleeps).toEqual([1500]);
    expect(io.lines.slice(-3)).toEqual(['Restore complete:', '  Messages sent: 2', '  Messages skipped: 1']);
    const dest = platform.account(PHONE).chats.get(DEST);
    expect([...(dest?.messages.values() ?? [])].map((m) => m.text)).toEqual(['with a photo', 'fourth']);
  });

  it('leaves files behind with --no-media and stops at --limit', async () => {
    const { code } = await restore(['--chat', String(CHAT), '--no-media', '--limit', '3', '--delay', '0']);
    expect(code).toBe(0);
    expect(platform.sent).toEqual([
      { chatId: CHAT, text: 'first', fileName: null },
      { chatId: CHAT, text: 'with a photo', fileName: null },
    ]);
  });

  it('says so for a chat the archive does not hold', async () => {
    const { code, io } = await restore(['--chat', '-100999', '--dry-run']);
    expect(code).toBe(1);
    expect(io.lines).toEqual(['Chat -100999 is not in the archive.']);
  });
});
