/**
 * `status`, `merge`, the health checks and `config` on both backends; merges always cross backends
 * (a PostgreSQL source into SQLite and the other way round).
 */
import { existsSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../common/cli/command';
import type { Env } from '../../common/env';
import { silentLogger } from '../../common/logger';
import { FIXTURE } from '../demo/dataset';
import { FIXTURE_FILES } from '../demo/files';
import { login, MASTER, PASSWORD_ENV, startViewerOn } from '../http/test-viewer';
import { BACKUP_KEYS } from '../store/metadata-keys';
import { listMigrations, migrateOpenStore } from '../store/migrate';
import { openArchiveStore } from '../store/open';
import type { sql } from '../store/sql';
import type { ArchiveDatabase, Backend } from '../store/store';
import { createTestDatabase, openTestStore, TEST_BACKENDS, type TestStore } from '../store/testing/databases';
import { runMerge } from './merge';
import { cli, databaseEnv, mintOwnRefs, tempDir } from './test-cli';

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});
/** Every file under a folder, as paths relative to it. */
const files = (root: string): string[] =>
  existsSync(root)
    ? readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) =>
          path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
        )
        .sort()
    : [];

const temp = () => {
  const dir = tempDir();
  cleanup.push(dir);
  return dir;
};

const TABLES = [
  'accounts',
  'chat_refs',
  'chats',
  'users',
  'messages',
  'message_versions',
  'media',
  'media_transcripts',
  'reactions',
  'forum_topics',
  'chat_folders',
  'chat_folder_members',
  'avatar_history',
  'sync_status',
  'chat_figures',
  'viewer_accounts',
];

async function counts(db: ArchiveDatabase): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) out[table] = await db.countTableRows(table);
  return out;
}

describe.each(TEST_BACKENDS)('archive-cli status on %s', (backend) => {
  let t: TestStore;
  let env: Env;
  const hour = 3600_000;
  const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

  beforeAll(async () => {
    t = await openTestStore(backend, { seed: false });
    env = { ...databaseEnv(t.config), TZ: 'Europe/Berlin' };
  });
  afterAll(async () => t?.close());

  it('is unhealthy when no backup run ever started, and says so in text and JSON', async () => {
    const text = await cli(['status'], env);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(
      'Archive status: UNHEALTHY\nLast backup start: never\nStatistics updated: never',
    );
    expect(text.stdout).toContain('Problems:\n  - no backup run has ever started');
    expect(text.stdout).toMatch(new RegExp(`Database: ${backend}, \\d+\\.\\d MB`));
    const json = await cli(['status', '--json'], env);
    expect(json.code).toBe(1);
    const body = JSON.parse(json.stdout);
    expect(body).toMatchObject({ healthy: false, problems: ['no backup run has ever started'] });
    expect(body.database.backend).toBe(backend);
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining(['backup', 'stats_calculated_at', 'listeners', 'media', 'database']),
    );
  });

  it('is healthy after a finished run, in local time; running now; unfinished; missed ticks', async () => {
    const started = iso(hour);
    await t.db.setMetadata(BACKUP_KEYS.lastStartedAt, started);
    await t.db.setMetadata(BACKUP_KEYS.inProgress, 'false');
    await t.db.setMetadata(BACKUP_KEYS.statsCalculatedAt, iso(hour - 60_000));
    await t.db.upsertAccount({ id: 1 });
    const healthy = await cli(['status'], { ...env, SCHEDULE: '0 */6 * * *' });
    // One tick of a six-hourly schedule may have passed in the last hour; none more.
    expect(healthy.stdout, healthy.stderr).toMatch(/^Archive status: healthy$/m);
    expect(healthy.code).toBe(0);
    const local = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Berlin',
      dateStyle: 'short',
      timeStyle: 'medium',
    }).format(new Date(started));
    expect(healthy.stdout).toContain(`Last backup start: ${local}\n`);
    expect(healthy.stdout).toContain('Listener (account 1): not running');

    await t.db.setMetadata(BACKUP_KEYS.inProgress, 'true');
    const running = await cli(['status'], env);
    expect(running.stdout).toContain(`Last backup start: ${local} (running now)`);

    await t.db.setMetadata(BACKUP_KEYS.inProgress, 'false');
    await t.db.setMetadata(BACKUP_KEYS.statsCalculatedAt, iso(2 * hour));
    const unfinished = await cli(['status'], env);
    expect(unfinished.code).toBe(1);
    expect(unfinished.stdout).toContain('  - the last backup run did not finish');

    await t.db.setMetadata(BACKUP_KEYS.statsCalculatedAt, iso(hour - 60_000));
    const missed = await cli(['status', '--json'], { ...env, SCHEDULE: '*/20 * * * *' });
    expect(missed.code).toBe(1);
    expect(JSON.parse(missed.stdout).problems).toEqual([
      'the schedule fired 3 or more times since the last backup run started',
    ]);
  });

  it("fails with the seed's line for an invalid cron or database configuration", async () => {
    const cron = await cli(['status'], { ...env, SCHEDULE: 'every minute' });
    expect(cron.code).toBe(1);
    expect(cron.stderr).toMatch(/^Status failed: invalid cron expression in SCHEDULE "every minute"/);
    const config = await cli(['status'], { DB_TYPE: 'oracle' });
    expect(config.code).toBe(1);
    expect(config.stderr).toMatch(/^Status failed: unrecognised database configuration/);
  });
});

describe('archive-cli status without a database', () => {
  it('creates a missing SQLite database empty and reads it as no backup', async () => {
    const file = path.join(temp(), 'new.db');
    const result = await cli(['status', '--json'], { DATABASE_PATH: file });
    expect(existsSync(file)).toBe(true);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      healthy: false,
      backup: { last_run: null, in_progress: false },
    });
  });

  it('says the database is unreachable, without the driver’s words, on either backend', async () => {
    const notADatabase = path.join(temp(), 'not-a-database.db');
    writeFileSync(notADatabase, 'this file holds text, not an SQLite database, and is long enough to tell');
    const aFile = path.join(temp(), 'a-file');
    writeFileSync(aFile, '');
    for (const env of [
      { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none' },
      { DATABASE_PATH: notADatabase },
      { DATABASE_PATH: path.join(aFile, 'archive.db') },
    ]) {
      for (const args of [['status'], ['status', '--json']]) {
        const result = await cli(args, env);
        expect(result.code, JSON.stringify(env)).toBe(1);
        expect(result.stdout, JSON.stringify(env)).toBe('');
        expect(result.stderr, JSON.stringify(env)).toBe('Status failed: database unreachable\n');
      }
    }
  });
});

const other = (backend: Backend): Backend => (backend === 'sqlite' ? 'postgresql' : 'sqlite');

describe.each(TEST_BACKENDS)('archive-cli merge into %s', (backend) => {
  let target: TestStore;
  let source: TestStore;
  let sourceUrl: string;
  let env: Env;
  let sourceMedia: string;

  const ctx = (): CommandContext & { out: string[]; errors: string[] } => {
    const out: string[] = [];
    const errors: string[] = [];
    return {
      env,
      logger: silentLogger(),
      io: { out: (s) => out.push(s), err: (s) => errors.push(s), errWrite: () => {} },
      out,
      errors,
    };
  };

  beforeAll(async () => {
    target = await openTestStore(backend);
    source = await openTestStore(other(backend));
    await mintOwnRefs(source.db);
    sourceUrl = source.config.backend === 'sqlite' ? source.config.path : source.config.url;
    sourceMedia = temp();
    mkdirSync(path.dirname(path.join(sourceMedia, FIXTURE_FILES.photo.path)), { recursive: true });
    writeFileSync(path.join(sourceMedia, FIXTURE_FILES.photo.path), 'photo bytes of the source');
    const work = temp();
    env = { ...databaseEnv(target.config), BACKUP_PATH: work };
  });
  afterAll(async () => {
    await target?.close();
    await source?.close();
  });

  it('refuses a source at another schema revision, and changes nothing', async () => {
    const older = await createTestDatabase(other(backend));
    const db = await openArchiveStore(older.config, silentLogger());
    try {
      await migrateOpenStore(db);
      await db.upsertAccount({ id: 1 });
      await db.maintenanceTransaction(async () => {});
      const driver = (db as unknown as { driver: { run(q: unknown): Promise<unknown> } }).driver;
      const { sql } = await import('../store/sql');
      const head = listMigrations(older.config.backend).length;
      await driver.run(sql`DELETE FROM schema_migrations WHERE version = ${head}`);
      const before = await counts(target.db);
      const c = ctx();
      const code = await runMerge(c, {
        source: older.config.backend === 'sqlite' ? older.config.path : older.config.url,
      });
      expect(code).toBe(1);
      expect(c.errors.join('\n')).toMatch(
        new RegExp(
          `^Merge refused: the source archive is at schema revision ${head - 1} and this archive at ${head}`,
        ),
      );
      expect(await counts(target.db)).toEqual(before);
    } finally {
      await db.close();
      await older.drop();
    }
  });

  it('leaves the target unchanged when the merge fails half-way', async () => {
    const before = await counts(target.db);
    const c = ctx();
    const code = await runMerge(
      c,
      { source: sourceUrl, 'source-media': sourceMedia },
      {
        afterTable: (table) => {
          if (table === 'media') throw new Error('injected failure');
        },
      },
    );
    expect(code).toBe(1);
    expect(c.errors).toEqual(['Merge failed: Error. Nothing was committed to the target database.']);
    expect(await counts(target.db)).toEqual(before);
    // The files it had copied are gone with it.
    expect(files(String(env.BACKUP_PATH))).toEqual([]);
  });

  it('a dry run counts and writes nothing', async () => {
    const before = await counts(target.db);
    const c = ctx();
    expect(await runMerge(c, { source: sourceUrl, 'source-media': sourceMedia, 'dry-run': true })).toBe(0);
    expect(c.out.join('\n')).toMatch(/^\[DRY RUN\] Merge complete:/);
    expect(await counts(target.db)).toEqual(before);
    // The ids it printed are the ones the merge will take: a rolled-back merge gives them back.
    const again = ctx();
    expect(await runMerge(again, { source: sourceUrl, 'source-media': sourceMedia, 'dry-run': true })).toBe(
      0,
    );
    expect(again.out.join('\n')).toContain('  Account 1 -> account 3\n');
  });

  it('finds the media of a SQLite source in the backups folder beside it, and names where it looked', async () => {
    const c = ctx();
    expect(await runMerge(c, { source: sourceUrl, 'dry-run': true })).toBe(0);
    const said = c.out.join('\n');
    if (source.config.backend === 'postgresql') {
      // A database URL has no folder beside it: nothing is found, and the output says what to pass.
      expect(said).toContain('  Media files copied: 0');
      expect(said).toContain('no media folder for a database URL source: pass --source-media DIR');
      return;
    }
    const folder = path.dirname(path.resolve(sourceUrl));
    expect(said).toContain('  Media files copied: 0');
    expect(said).toContain(`(looked for them under ${folder}: pass --source-media DIR`);
    // This archive's own layout: <DATA_DIR>/archive.db beside <DATA_DIR>/backups.
    const backups = path.join(folder, 'backups');
    mkdirSync(path.dirname(path.join(backups, FIXTURE_FILES.photo.path)), { recursive: true });
    writeFileSync(path.join(backups, FIXTURE_FILES.photo.path), 'photo bytes of the source');
    try {
      const again = ctx();
      expect(await runMerge(again, { source: sourceUrl, 'dry-run': true })).toBe(0);
      expect(again.out.join('\n')).toContain('  Media files copied: 1');
    } finally {
      rmSync(backups, { recursive: true, force: true });
    }
  });

  it('copies every account under new ids with its rows and media, leaving the target rows alone', async () => {
    const before = await counts(target.db);
    const sourceCounts = await counts(source.db);
    const exportBefore = await cli(['export', '-o', path.join(temp(), 'before.json')], env);
    expect(exportBefore.code).toBe(0);
    const result = await cli(['merge', '--source', sourceUrl, '--source-media', sourceMedia], env);
    expect(result.code, result.stderr).toBe(0);
    // New ids after the target's two, the ones the dry run printed: the failed and the dry run gave
    // back the ids they drew.
    const mapping =
      /^Merge complete:\n {2}Account 1 -> account (\d+)\n {2}Account 2 \(work\) -> account (\d+)$/m.exec(
        result.stdout,
      );
    expect(mapping, result.stdout).not.toBeNull();
    const [first, second] = [Number(mapping?.[1]), Number(mapping?.[2])];
    expect([first, second]).toEqual([3, 4]);
    expect(result.stdout).toContain(`    messages: ${sourceCounts.messages}`);
    expect(result.stdout).toContain('  Media files copied: 1');
    const after = await counts(target.db);
    for (const table of TABLES) {
      if (table === 'users' || table === 'viewer_accounts') continue;
      expect(after[table], table).toBe((before[table] ?? 0) + (sourceCounts[table] ?? 0));
    }
    // Users are global and the same in both; viewer accounts are never merged.
    expect(after.users).toBe(before.users);
    expect(after.viewer_accounts).toBe(before.viewer_accounts);
    // The photo now lives in the merged account's own chat folder, as the media layout puts it; the
    // source's file is untouched.
    const folder = `-1001234567890_account_${first}`;
    expect(files(String(env.BACKUP_PATH))).toEqual([`${folder}/${path.basename(FIXTURE_FILES.photo.path)}`]);
    expect(files(sourceMedia)).toEqual([FIXTURE_FILES.photo.path]);
    // The original account's chats keep their refs; the merged copies got new ones (the fixture's are taken).
    const merged = await target.db.listAccounts({ accounts: null, chatRefs: null, displayChatIds: null });
    expect(merged.map((a) => a.id)).toEqual([1, 2, first, second]);
    // The viewer serves the merged file from its new place.
    const [key] = await target.db.chatKeysOf(-1001234567890, first);
    const viewer = await startViewerOn(target.config, {
      ...PASSWORD_ENV,
      BACKUP_PATH: String(env.BACKUP_PATH),
    });
    try {
      const cookie = await login(viewer.url, MASTER.username, MASTER.password);
      const res = await fetch(`${viewer.url}/media/${key?.ref}/4182_photo`, {
        headers: { cookie: `viewer_auth=${cookie}` },
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('photo bytes of the source');
    } finally {
      await viewer.close();
    }
  });

  it('refuses orphaned source rows unless --add-missing-parents, which adds placeholders for them', async () => {
    // A source whose chat row of one chat, and one message holding a photo, were lost (foreign keys off).
    const orphaned = await openTestStore(other(backend));
    await mintOwnRefs(orphaned.db);
    try {
      const driver = (
        orphaned.db as unknown as {
          driver: { run(q: unknown): Promise<unknown>; get(q: unknown): Promise<{ n: number } | undefined> };
        }
      ).driver;
      const { raw, sql } = await import('../store/sql');
      const withoutForeignKeys = async (statements: ReturnType<typeof sql>[]) => {
        if (orphaned.config.backend === 'sqlite') {
          await driver.run(sql`PRAGMA foreign_keys = OFF`);
          for (const statement of statements) await driver.run(statement);
          await driver.run(sql`PRAGMA foreign_keys = ON`);
        } else {
          for (const table of ['chats', 'messages', 'media'])
            await driver.run(raw(`ALTER TABLE ${table} DISABLE TRIGGER ALL`));
          for (const statement of statements) await driver.run(statement);
          for (const table of ['chats', 'messages', 'media'])
            await driver.run(raw(`ALTER TABLE ${table} ENABLE TRIGGER ALL`));
        }
      };
      const family = FIXTURE.family.id;
      const rc = FIXTURE.releaseCrew.id;
      const familyMessages = await orphaned.db.countChatMessages({ accountId: 1, chatId: family });
      expect(familyMessages).toBeGreaterThan(0);
      await withoutForeignKeys([
        sql`DELETE FROM chats WHERE account_id = 1 AND id = ${family}`,
        sql`DELETE FROM messages WHERE account_id = 1 AND chat_id = ${rc} AND id = 4182`,
      ]);
      const url = orphaned.config.backend === 'sqlite' ? orphaned.config.path : orphaned.config.url;
      const before = await counts(target.db);

      const refused = ctx();
      expect(await runMerge(refused, { source: url, account: '1' })).toBe(1);
      expect(refused.errors).toEqual([
        `Merge refused: ${familyMessages + 5} source rows reference chats or messages missing from the source archive ` +
          `(messages: ${familyMessages}, media: 1, message_versions: 1, reactions: 2, sync_status: 1); pass --add-missing-parents to add placeholders for them`,
      ]);
      expect(await counts(target.db)).toEqual(before);

      const dry = ctx();
      expect(
        await runMerge(dry, { source: url, account: '1', 'add-missing-parents': true, 'dry-run': true }),
        dry.errors.join('\n'),
      ).toBe(0);
      expect(dry.out.join('\n')).toMatch(/^\[DRY RUN\] Merge complete:/);
      expect(await counts(target.db)).toEqual(before);

      const done = ctx();
      expect(await runMerge(done, { source: url, account: '1', 'add-missing-parents': true })).toBe(0);
      const id = Number(/^ {2}Account 1 -> account (\d+)$/m.exec(done.out.join('\n'))?.[1]);
      expect(id).toBeGreaterThan(2);
      // The lost chat is back as a placeholder holding every one of its messages; the lost message is a
      // placeholder holding its photo, its earlier version and its reactions.
      expect(await target.db.chatKeysOf(family, id)).toHaveLength(1);
      expect(await target.db.countChatMessages({ accountId: id, chatId: family })).toBe(familyMessages);
      const ids = await target.db.existingMessageIds({ accountId: id, chatId: rc }, [4182]);
      expect([...ids]).toEqual([4182]);
      // Every chat of the account, and one placeholder.
      const accountChats = Number(
        (await driver.get(sql`SELECT count(*) AS n FROM chats WHERE account_id = 1`))?.n,
      );
      expect((await counts(target.db)).chats).toBe((before.chats ?? 0) + accountChats + 1);
      expect(done.out.join('\n')).toMatch(/placeholders: 2$/m);
    } finally {
      await orphaned.close();
    }
  });

  it('refuses a source account merged before, naming it, and changes nothing', async () => {
    const before = await counts(target.db);
    const again = await cli(['merge', '--source', sourceUrl, '--source-media', sourceMedia], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /Merge refused: this archive already holds every one of the (\d+) chats of source account 1 under the same refs/,
    );
    expect(again.stderr).toContain(
      'it was merged before, and merging it again would copy their messages twice',
    );
    expect(await counts(target.db)).toEqual(before);
    // The source has a chat the first merge did not see: the chats held would still be copied twice.
    const chats = (await source.db.listAdminChats()).filter((c) => c.account_id === 1);
    await mintOwnRefs(source.db, (chat) => chat.ref === chats[0]?.ref);
    const grown = await cli(['merge', '--source', sourceUrl, '--source-media', sourceMedia], env);
    expect(grown.code).toBe(1);
    expect(grown.stderr).toContain(
      `already holds ${chats.length - 1} of the ${chats.length} chats of source account 1`,
    );
    expect(await counts(target.db)).toEqual(before);
  });

  it('merges one account chosen by label, and refuses an unknown one', async () => {
    // Another archive holding the same accounts (its own refs): not the one merged above.
    await mintOwnRefs(source.db);
    const c = ctx();
    expect(await runMerge(c, { source: sourceUrl, account: 'work', 'source-media': sourceMedia })).toBe(0);
    expect(c.out.join('\n')).toMatch(/^ {2}Account 2 \(work\) -> account \d+$/m);
    expect(c.out.join('\n')).not.toContain('Account 1 ');
    const missing = ctx();
    expect(await runMerge(missing, { source: sourceUrl, account: 'nobody' })).toBe(1);
    expect(missing.errors).toEqual(['Merge refused: no account "nobody" in the source archive']);
    const self = ctx();
    const own = target.config.backend === 'sqlite' ? target.config.path : target.config.url;
    expect(await runMerge(self, { source: own })).toBe(1);
    expect(self.errors).toEqual(['Merge refused: the source is this archive itself']);
  });
});

describe('health checks and the configuration self-check', () => {
  let server: Server;
  let answer: { status: number; body: unknown } = {
    status: 200,
    body: { status: 'ok', database: 'connected' },
  };
  let url = '';
  let authorization: string | undefined;

  beforeAll(async () => {
    server = createServer((req, res) => {
      authorization = req.headers.authorization;
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/health`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('healthcheck-backup: fresh heartbeat 0, stale or missing 1', async () => {
    const file = path.join(temp(), 'heartbeat');
    const missing = await cli(['healthcheck-backup'], { HEARTBEAT_FILE: file });
    expect(missing).toMatchObject({ code: 1, stderr: 'Unhealthy: heartbeat file missing\n' });
    writeFileSync(file, String(Date.now()));
    expect((await cli(['healthcheck-backup'], { HEARTBEAT_FILE: file })).code).toBe(0);
    const old = new Date(Date.now() - 200_000);
    utimesSync(file, old, old);
    const stale = await cli(['healthcheck-backup'], { HEARTBEAT_FILE: file });
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/^Unhealthy: heartbeat is 20\d seconds old \(limit 180\)/);
    expect(
      (await cli(['healthcheck-backup'], { HEARTBEAT_FILE: file, HEARTBEAT_MAX_AGE_SECONDS: '300' })).code,
    ).toBe(0);
  });

  it("healthcheck-viewer: 200 with status ok is healthy; 503 (with the viewer's reason) or no server is not", async () => {
    expect((await cli(['healthcheck-viewer'], { HEALTHCHECK_URL: url })).code).toBe(0);
    answer = { status: 503, body: { status: 'degraded', database: 'unreachable' } };
    const degraded = await cli(['healthcheck-viewer'], { HEALTHCHECK_URL: url });
    expect(degraded).toMatchObject({ code: 1, stderr: 'Unhealthy: viewer answered HTTP 503\n' });
    answer = {
      status: 503,
      body: { status: 'degraded', database: 'no_schema', reason: 'no schema: run migrate' },
    };
    const unready = await cli(['healthcheck-viewer'], { HEALTHCHECK_URL: url });
    expect(unready).toMatchObject({
      code: 1,
      stderr: 'Unhealthy: viewer answered HTTP 503: no schema: run migrate\n',
    });
    answer = { status: 200, body: { status: 'degraded' } };
    expect((await cli(['healthcheck-viewer'], { HEALTHCHECK_URL: url })).code).toBe(1);
    const refused = await cli(['healthcheck-viewer'], { HEALTHCHECK_URL: 'http://127.0.0.1:1/api/health' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('at http://127.0.0.1:1/api/health');
    const secret = await cli(['healthcheck-viewer'], {
      HEALTHCHECK_URL: 'http://probe:hunter2@127.0.0.1:1/api/health?token=abc',
    });
    expect(secret.stderr).toContain('at http://127.0.0.1:1/api/health');
    expect(secret.stderr).not.toMatch(/hunter2|token=abc/);
    // A user and password in the address go as basic authorization (fetch refuses them in a URL).
    answer = { status: 200, body: { status: 'ok' } };
    const withUser = url.replace('http://', 'http://probe:hunter2@');
    expect((await cli(['healthcheck-viewer'], { HEALTHCHECK_URL: withUser })).code).toBe(0);
    expect(authorization).toBe(`Basic ${Buffer.from('probe:hunter2').toString('base64')}`);
    // Without HEALTHCHECK_URL, the seed's address on the viewer's own port.
    answer = { status: 200, body: { status: 'ok' } };
    const port = new URL(url).port;
    expect((await cli(['healthcheck-viewer'], { VIEWER_PORT: port })).code).toBe(0);
    expect((await cli(['healthcheck-viewer'], { ARCHIVE_VIEWER_PORT: port })).code).toBe(0);
  });

  it('config logs a self-check without the phone and exits 0 even on an invalid value', async () => {
    const ok = await cli(['config'], {
      LOG_LEVEL: 'INFO',
      MSGR_PHONE: '+15551234567',
      DATABASE_PATH: 'x.db',
    });
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain('configuration self-check passed');
    expect(ok.stderr).toContain('"phoneConfigured":true');
    expect(ok.stderr).not.toContain('5551234567');
    const bad = await cli(['config'], { DELETION_MODE: 'sometimes' });
    expect(bad.code).toBe(0);
    expect(bad.stdout).toMatch(/^Configuration error: DELETION_MODE must be one of soft, hard/);
    const quiet = await cli(['config'], { LOG_LEVEL: 'ERROR', DATABASE_PATH: 'x.db' });
    expect(quiet.stderr).toBe('');
  });
});
