/**
 * `archive-cli import`, `export`, `stats` and `list-chats` on both backends, with every real export in
 * the fixtures (files their uploaders renamed are put back under the export's own names).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../common/env';
import { createTestDatabase, TEST_BACKENDS, type TestDatabase } from '../store/testing/databases';
import { cli, databaseEnv, exportFolder, tempDir } from './test-cli';

interface Exported {
  statistics: Record<string, number>;
  filters: Record<string, unknown>;
  chats: { id: number; type: string; title: string | null }[];
  messages: Record<string, unknown>[];
  message_versions: unknown[];
}

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

function folder(sample: string, files: Record<string, string>, withFolders: string[] = []) {
  const dir = exportFolder(sample, files, withFolders);
  cleanup.push(dir);
  return dir;
}

describe.each(TEST_BACKENDS)('archive-cli import and export on %s', (backend) => {
  let database: TestDatabase;
  let env: Env;
  let work: string;

  const exportAll = async (args: string[] = []): Promise<Exported> => {
    const file = path.join(work, `export-${Math.random().toString(36).slice(2)}.json`);
    const result = await cli(['export', '-o', file, ...args], env);
    expect(result.code, result.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    const parsed = JSON.parse(text) as Exported;
    // Indent 2, as one JSON.stringify of the whole document would write it.
    expect(text).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
    return parsed;
  };
  const messagesOf = async (chatId: number) =>
    (await exportAll(['-c', String(chatId)])).messages as Record<string, unknown>[];

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    work = tempDir();
    cleanup.push(work);
    env = { ...databaseEnv(database.config), BACKUP_PATH: path.join(work, 'backups'), LOG_LEVEL: 'WARNING' };
    const migrated = await cli(['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
  });
  afterAll(async () => database?.drop());

  it('imports a channel export with media files, edits, entities and the service entry', async () => {
    const dir = folder('tg2md-channel', { 'result.json': 'result.json' }, [
      'photos',
      'files',
      'voice_messages',
    ]);
    // -p may name result.json itself: its folder is the export (the media files beside it are found).
    const result = await cli(['import', '-p', path.join(dir, 'result.json')], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Import complete:\n  Chats: 1\n  Messages: 19\n  Media files: 5\n');
    expect(result.stdout).toContain('test [channel, -1001292077344]: 19 messages, 5 media files');
    const messages = await messagesOf(-1001292077344);
    expect(messages.map((m) => m.id)).toEqual([
      1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 13, 14, 15, 21, 22, 23, 24, 25, 26,
    ]);
    const service = messages[0] as Record<string, unknown>;
    expect(service.raw_data).toMatchObject({ export_type: 'service', action: 'create_channel' });
    const edited = messages.find((m) => m.id === 5) as Record<string, unknown>;
    expect(edited.edit_date).toBe('2020-11-12T13:03:00Z');
    expect(edited.text).toBe('italic\n\nbold\n\nunderline\n\nstrikethrough\n\nmonospace');
    expect((edited.raw_data as { entities: { type: string }[] }).entities.map((e) => e.type)).toEqual([
      'italic',
      'bold',
      'underline',
      'strikethrough',
      'pre',
    ]);
    expect(messages[1]?.sender_id).toBe(-1001292077344);
    // The files are copied under the chat's folder, named from the storage media id.
    const media = path.join(work, 'backups', '-1001292077344');
    expect(readFileSync(path.join(media, '-1001292077344_7_voice.ogg'))).toEqual(
      readFileSync(path.join(dir, 'voice_messages/audio_1@12-11-2020_13-01-05.ogg')),
    );
    expect(existsSync(path.join(media, '-1001292077344_22_document.svg'))).toBe(true);
    // photo_3 and LICENSE.md were left out of the export: recorded as not in the export, not as pending.
    const status = await cli(['status', '--json'], env);
    expect(JSON.parse(status.stdout).media).toMatchObject({ downloaded: 5, pending: 0, skipped: 4 });
  });

  it('needs --merge for a chat that has messages, and then keeps what is archived', async () => {
    const dir = folder('tg2md-channel', { 'result.json': 'result.json' });
    const again = await cli(['import', '-p', dir], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^Import failed: chat -1001292077344 already has 19 messages/m);
    const merged = await cli(['import', '-p', dir, '--merge', '--skip-media'], env);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toContain('  Messages: 0\n');
    expect(merged.stdout).toContain('  Already archived: 19');
  });

  it('imports a whole-account export (chats.list) with a line per chat', async () => {
    const dir = folder('mlomb-chat-analytics', { 'MultiChat_2C_6M.json': 'result.json' });
    const result = await cli(['import', '-p', dir], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('  Chats: 2\n  Messages: 6\n');
    expect(result.stdout).toContain('Chat One [private, 700000001]: 2 messages');
    expect(result.stdout).toContain('Chat Two [group, -700000002]: 4 messages');
  });

  it('takes date_unixtime when present and the local date otherwise', async () => {
    const dir = folder('mlomb-chat-analytics', { 'DM_2A_7M.json': 'result.json' });
    expect((await cli(['import', '-p', dir], env)).code).toBe(0);
    const messages = await messagesOf(700000000);
    const date = (id: number) => messages.find((m) => m.id === id)?.date;
    expect(messages).toHaveLength(8);
    expect(date(2675)).toBe('2019-07-05T16:55:32Z');
    expect(date(3662)).toBe(new Date(1652135033 * 1000).toISOString().replace('.000Z', 'Z'));
    // Both given and disagreeing: the unixtime wins.
    expect(date(3674)).toBe('2023-08-11T02:11:02Z');
  });

  it('reports duplicate ids instead of overwriting (every id of this export is 69420)', async () => {
    const dir = folder('tele-dashboard-group', { 'sample.json': 'result.json' });
    const result = await cli(['import', '-p', dir], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('  Duplicate message ids skipped: 255');
    const [only] = await messagesOf(-69420);
    const source = JSON.parse(readFileSync(path.join(dir, 'result.json'), 'utf8')).messages[0];
    expect(only).toMatchObject({ id: 69420, sender_name: source.actor, date: '2022-03-21T11:11:11Z' });
  });

  it('maps saved messages, supergroups and channels, polls and pins', async () => {
    for (const [file, chatId, type, count] of [
      ['saved.json', 9999999999, 'private', 21],
      ['public_supergroup.json', -1009888888888, 'supergroup', 4],
      ['private_channel.json', -1010036995664, 'channel', 7],
    ] as const) {
      const dir = folder('innerdvations-saved-and-groups', { [file]: 'result.json' });
      const result = await cli(['import', '-p', dir], env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(`[${type}, ${chatId}]: ${count} messages`);
    }
    const exported = await exportAll();
    expect(exported.chats.find((c) => c.id === 9999999999)).toMatchObject({
      type: 'private',
      title: 'Saved Messages',
    });
    const channel = exported.messages.filter((m) => m.chat_id === -1010036995664);
    const poll = channel.find((m) => (m.raw_data as { poll?: unknown }).poll);
    expect((poll?.raw_data as { poll?: { question: string } } | undefined)?.poll?.question).toBeTruthy();
    const pin = channel.find((m) => (m.raw_data as { action?: string }).action === 'pin_message');
    const pinnedId = (pin?.raw_data as { message_id?: number } | undefined)?.message_id;
    expect(pinnedId).toBeTypeOf('number');
    expect(channel.find((m) => m.id === pinnedId)?.is_pinned).toBe(1);
    // A supergroup's pre-migration messages keep their negative ids.
    const group = exported.messages.filter((m) => m.chat_id === -1009888888888);
    expect(group.some((m) => (m.id as number) < 0)).toBe(true);
  });

  it('imports the synthetic schema-coverage exports: reactions, media types, 44 service actions', async () => {
    const dir = folder('tkonverter-synthetic', { 'result.json': 'result.json' });
    const result = await cli(['import', '-p', dir], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('  Messages: 86\n');
    expect(result.stdout).toContain('  Entries without a date skipped: 1');
    const group = folder('tkonverter-synthetic', { 'result_group.json': 'result.json' });
    expect((await cli(['import', '-p', group], env)).code).toBe(0);
    const messages = await messagesOf(10001);
    const reacted = messages.find((m) => m.id === 1);
    expect(reacted).toBeDefined();
    const forwarded = messages.find((m) => m.forward_from_id !== null);
    expect(forwarded?.raw_data).toHaveProperty('forwarded_from');
  });

  it('imports HTML exports with -c: the reduced fixture, and two genuine two-page channel exports', async () => {
    const reduced = folder('cnafateh-html-fixture', { 'messages.html': 'messages.html' });
    const needsChat = await cli(['import', '-p', reduced], env);
    expect(needsChat.code).toBe(1);
    expect(needsChat.stderr.trim()).toMatch(
      /^Import failed: an HTML export does not say which chat it is: give its id with -c\/--chat-id in the platform's marked format \(.*\); for a chat from elsewhere any id the archive does not use will do, such as -c -1009000000001$/,
    );
    const small = await cli(['import', '-p', reduced, '-c', '-4001'], env);
    expect(small.code, small.stderr).toBe(0);
    const [first, second] = await messagesOf(-4001);
    expect(first).toMatchObject({
      id: 1001,
      sender_name: 'Alice',
      text: 'Hello archive',
      date: '2023-05-14T13:13:57Z',
    });
    expect(second).toMatchObject({
      id: 1002,
      sender_name: 'Bob',
      reply_to_msg_id: 1001,
      text: 'Reply with photo',
    });

    // As its uploader left it: the first page is index.html, the second messages2.html; -p names the folder.
    const android = folder('devcomputaria-android-channel', {
      'index.html': 'index.html',
      'messages2.html': 'messages2.html',
    });
    const a = await cli(['import', '-p', android, '-c', '-1001100000001'], env);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toContain('Android Security & Malware [channel, -1001100000001]: 1471 messages');
    const civil = folder('onlineverdan-civil-channel', {
      'messages.html': 'messages.html',
      'messages2.html': 'messages2.html',
    });
    // -p may name the first page itself.
    const c = await cli(['import', '-p', path.join(civil, 'messages.html'), '-c', '-1001100000002'], env);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).toContain('[channel, -1001100000002]: 1985 messages');
    const polls = (await messagesOf(-1001100000002)).filter((m) => (m.raw_data as { poll?: unknown }).poll);
    expect(polls).toHaveLength(245);
  });

  it('exports with filters: one chat, a date window with the end day exclusive', async () => {
    // 3662 is at 2022-05-09T22:23:53Z: an end date of 2022-05-09 leaves it out.
    const exported = await exportAll(['-c', '700000000', '-s', '2019-07-06', '-e', '2022-05-09']);
    expect(exported.filters).toEqual({
      chat_id: 700000000,
      start_date: '2019-07-06',
      end_date: '2022-05-09',
    });
    expect(exported.messages.map((m) => m.id)).toEqual([3644, 3645]);
    expect(exported.statistics.total_messages).toBe(2);
    const wider = await exportAll(['-c', '700000000', '-s', '2019-07-06', '-e', '2022-05-10']);
    expect(wider.messages.map((m) => m.id)).toEqual([3644, 3645, 3662, 3663]);
    expect(exported.chats.length).toBeGreaterThan(5);
    expect(Object.keys(exported.messages[0] ?? {})).toEqual([
      'id',
      'chat_id',
      'sender_id',
      'sender_name',
      'date',
      'text',
      'reply_to_msg_id',
      'reply_to_top_id',
      'reply_to_text',
      'forward_from_id',
      'edit_date',
      'raw_data',
      'created_at',
      'is_outgoing',
      'is_pinned',
      'is_deleted',
      'deleted_at',
      'account_id',
    ]);
    const bad = await cli(['export', '-o', path.join(work, 'x.json'), '-s', '2019-13-01'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("argument -s/--start-date: invalid date '2019-13-01'");
    // A chat the archive lacks: the file as the seed says (no message), and a note naming the id.
    const none = await cli(['export', '-o', path.join(work, 'none.json'), '-c', '-1009999'], env);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('Exported 0 messages');
    expect(none.stderr).toContain('Note: no chat -1009999 in this archive');
    const known = await cli(['export', '-o', path.join(work, 'known.json'), '-c', '-1001292077344'], env);
    expect(known.stderr).not.toContain('Note:');
  });

  it('DB_ECHO=true logs every statement on stderr, even at LOG_LEVEL=ERROR; LOG_LEVEL quiets the rest', async () => {
    const echoed = await cli(['list-chats'], { ...env, DB_ECHO: 'True', LOG_LEVEL: 'ERROR' });
    expect(echoed.code).toBe(0);
    expect(echoed.stderr).toMatch(/"sql":"SELECT account_id, id, type, title/);
    expect((await cli(['list-chats'], { ...env, DB_ECHO: 'yes', LOG_LEVEL: 'ERROR' })).stderr).toBe('');
    const dir = folder('mlomb-chat-analytics', { 'DM_2A_7M.json': 'result.json' });
    const info = await cli(['import', '-p', dir, '--dry-run', '--merge'], { ...env, LOG_LEVEL: 'bogus' });
    // An unknown LOG_LEVEL is INFO; the log line carries counts, never chat ids, names or text.
    expect(info.stderr).toContain('"msg":"chat imported"');
    expect(info.stderr).not.toMatch(/700000000|Bob|Hello/);
  });

  it('lists chats and prints the cached statistics banner', async () => {
    const list = await cli(['list-chats'], env);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^ID\s+Type\s+Name\s+Last Updated$/);
    expect(list.stdout).toMatch(/^-1001292077344\s+channel\s+test\s+2021-07-14 19:20:23$/m);
    const chats = (await exportAll()).chats.length;
    expect(list.stdout).toContain(`Total: ${chats} chats`);
    // The imports above recalculated the cached figures.
    const stats = await cli(['stats'], env);
    expect(stats.code).toBe(0);
    const exported = await exportAll();
    expect(stats.stdout).toContain(
      `Total chats: ${exported.statistics.total_chats}\nTotal messages: ${exported.statistics.total_messages}\n`,
    );
    expect(exported.statistics.total_messages).toBeGreaterThan(0);
    expect(stats.stdout).toMatch(/^Calculated at: \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/m);
  });

  describe('wrong inputs write nothing', () => {
    const snapshot = async () => {
      const e = await exportAll();
      return { chats: e.chats.length, messages: e.statistics.total_messages };
    };

    it('a folder with no export, a missing folder', async () => {
      const before = await snapshot();
      const empty = tempDir();
      cleanup.push(empty);
      const none = await cli(['import', '-p', empty], env);
      expect(none.code).toBe(1);
      expect(none.stderr).toBe(`Import failed: no result.json or exported HTML page in ${empty}\n`);
      const missing = await cli(['import', '-p', path.join(empty, 'nope')], env);
      expect(missing.stderr).toMatch(/^Import failed: export folder not found/);
      expect(await snapshot()).toEqual(before);
    });

    it('a truncated and an invalid result.json roll the chat back', async () => {
      const before = await snapshot();
      const dir = folder('tkonverter-synthetic', { 'result_group.json': 'result.json' });
      const text = readFileSync(path.join(dir, 'result.json'), 'utf8').replace('"id": 20001', '"id": 20002');
      writeFileSync(path.join(dir, 'result.json'), text.slice(0, Math.floor(text.length * 0.7)));
      const truncated = await cli(['import', '-p', dir], env);
      expect(truncated.code).toBe(1);
      expect(truncated.stderr).toMatch(/^Import failed: result\.json is not valid JSON/m);
      writeFileSync(
        path.join(dir, 'result.json'),
        '{"name": "x", "type": "personal_chat", "id": 5, "messages": [}',
      );
      const invalid = await cli(['import', '-p', dir], env);
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toMatch(/^Import failed: result\.json is not valid JSON/m);
      writeFileSync(path.join(dir, 'result.json'), '{"hello": "world"}');
      const notExport = await cli(['import', '-p', dir], env);
      expect(notExport.stderr).toMatch(/^Import failed: result\.json holds no chat/m);
      expect(await snapshot()).toEqual(before);
    });

    it('an HTML file of another app', async () => {
      const before = await snapshot();
      const dir = tempDir();
      cleanup.push(dir);
      writeFileSync(
        path.join(dir, 'messages.html'),
        '<!doctype html><html><body><div class="chat"><p class="message">hi</p></div></body></html>',
      );
      const result = await cli(['import', '-p', dir, '-c', '5'], env);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('Import failed: messages.html is not a desktop-app HTML export\n');
      expect(await snapshot()).toEqual(before);
    });

    it('a dry run changes nothing (the SQLite file stays byte-identical) and counts the same', async () => {
      const dir = folder('tkonverter-synthetic', { 'result_group.json': 'result.json' });
      writeFileSync(
        path.join(dir, 'result.json'),
        readFileSync(path.join(dir, 'result.json'), 'utf8').replace('"id": 20001', '"id": 20003'),
      );
      const before = await snapshot();
      const bytes = database.config.backend === 'sqlite' ? readFileSync(database.config.path) : null;
      const dry = await cli(['import', '-p', dir, '--dry-run'], env);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toMatch(/^\[DRY RUN\] Import complete:\n {2}Chats: 1\n {2}Messages: 44\n/);
      if (bytes && database.config.backend === 'sqlite') {
        expect(readFileSync(database.config.path).equals(bytes)).toBe(true);
      }
      expect(await snapshot()).toEqual(before);
    });
  });
});

describe('archive-cli usage', () => {
  it('prints help without arguments, usage naming the problem with exit 2', async () => {
    const help = await cli([], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: archive-cli/);
    for (const name of [
      'import',
      'export',
      'merge',
      'status',
      'migrate-sqlite-to-postgres',
      'detect-albums',
    ]) {
      expect(help.stdout).toContain(`  ${name} `);
    }
    const missing = await cli(['import'], {});
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('archive-cli: error: the following arguments are required: -p/--path');
    expect(missing.stderr).toMatch(/^usage: archive-cli import \[-h\] -p PATH/);
    const unknown = await cli(['export', '-o', 'x.json', '--colour'], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unrecognized arguments: --colour');
    const command = await cli(['frobnicate'], {});
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('unknown command "frobnicate"');
    const late = await cli(['stats', '--data-dir', '/tmp/x'], {});
    expect(late.code).toBe(2);
  });

  it('--data-dir before the subcommand sets BACKUP_PATH and SESSION_DIR and creates both', async () => {
    const dir = tempDir();
    cleanup.push(dir);
    const result = await cli(['--data-dir', dir, 'config'], {
      LOG_LEVEL: 'INFO',
      DATABASE_PATH: path.join(dir, 'a.db'),
    });
    expect(result.code).toBe(0);
    expect(existsSync(path.join(dir, 'backups'))).toBe(true);
    expect(existsSync(path.join(dir, 'session'))).toBe(true);
    expect(result.stderr).toContain(`"mediaPath":"${path.join(dir, 'backups')}"`);
    expect(result.stderr).toContain(`"sessionDir":"${path.join(dir, 'session')}"`);
  });
});
