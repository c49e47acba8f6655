/**
 * The scripts as commands: the SQLite → PostgreSQL migration and the maintenance passes (each on both
 * backends, each with a dry run that changes nothing), and the demo archive generator.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../common/env';
import { silentLogger } from '../../common/logger';
import { FIXTURE } from '../demo/dataset';
import { FIXTURE_FILES } from '../demo/files';
import { openArchiveStore } from '../store/open';
import { sql } from '../store/sql';
import { ALL_VISIBLE } from '../store/store';
import { createTestDatabase, openTestStore, TEST_BACKENDS, type TestStore } from '../store/testing/databases';
import { relativeMediaPath } from './migrate-media-paths';
import { cli, databaseEnv, tempDir } from './test-cli';

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});
const temp = () => {
  const dir = tempDir();
  cleanup.push(dir);
  return dir;
};

describe('archive-cli migrate-sqlite-to-postgres', () => {
  let source: TestStore;
  let target: Awaited<ReturnType<typeof createTestDatabase>>;
  let url: string;

  beforeAll(async () => {
    source = await openTestStore('sqlite');
    target = await createTestDatabase('postgresql');
    url = target.config.backend === 'postgresql' ? target.config.url : '';
  });
  afterAll(async () => {
    await source?.close();
    await target?.drop();
  });

  const sqlitePath = () => (source.config.backend === 'sqlite' ? source.config.path : '');

  it('needs both flags and refuses a missing SQLite file', async () => {
    const usage = await cli(['migrate-sqlite-to-postgres', '-s', 'x.db'], {});
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('the following arguments are required: -p/--postgres');
    const missing = await cli(['migrate-sqlite-to-postgres', '-s', '/nonexistent/x.db', '-p', url], {});
    expect(missing).toMatchObject({
      code: 1,
      stderr: 'Migration refused: SQLite database not found: /nonexistent/x.db\n',
    });
  });

  it('a dry run counts every table and writes nothing (not even the schema)', async () => {
    const dry = await cli(['migrate-sqlite-to-postgres', '-s', sqlitePath(), '-p', url, '-n'], {});
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^ {2}messages: \d+ rows$/m);
    expect(dry.stdout).toContain('nothing was written');
    const db = await openArchiveStore(target.config, silentLogger());
    try {
      expect(await db.schemaRevision()).toBe(0);
    } finally {
      await db.close();
    }
  });

  it('copies every table in batches, resets sequences, verifies, and refuses a non-empty target', async () => {
    // Texts the bulk load's format must escape: a tab, a line break, a backslash and its NULL marker.
    const awkward = 'tab\there\nnext line \\ and \\N, as typed';
    await source.db.upsertMessages([
      {
        accountId: 1,
        chatId: FIXTURE.releaseCrew.id,
        id: 990001,
        date: new Date('2026-03-20T10:00:00Z'),
        text: awkward,
      },
    ]);
    const copy = await cli(['migrate-sqlite-to-postgres', '-s', sqlitePath(), '-p', url, '-b', '7'], {});
    expect(copy.code, copy.stderr).toBe(0);
    const messages = await source.db.countTableRows('messages');
    expect(copy.stdout).toContain(`  messages: ${messages} rows`);
    expect(copy.stdout).toMatch(/^Migration complete: \d+ rows in \d+ tables\.$/m);
    const verified = await cli(
      ['migrate-sqlite-to-postgres', '-s', sqlitePath(), '-p', url, '--verify-only'],
      {},
    );
    expect(verified.code, verified.stdout).toBe(0);
    expect(verified.stdout).toMatch(/^ {2}messages: \d+ rows, checksum [0-9a-f]{16} OK$/m);
    expect(verified.stdout).toContain('Verification passed.');
    const copiedDb = await openArchiveStore(target.config, silentLogger());
    try {
      const chat = await copiedDb.findChat(ALL_VISIBLE, FIXTURE.releaseCrew.ref);
      expect(chat && (await copiedDb.getMessage(chat.key, 990001, { withTranscripts: false }))?.text).toBe(
        awkward,
      );
    } finally {
      await copiedDb.close();
    }
    // The copy is a working archive: its sequences continue past the copied ids.
    const db = await openArchiveStore(target.config, silentLogger());
    try {
      const id = await db.upsertAccount({ label: 'after' });
      expect(id).toBe(3);
      const again = await cli(['migrate-sqlite-to-postgres', '-s', sqlitePath(), '-p', url], {});
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(
        /^Migration refused: the PostgreSQL database is not empty \(table accounts has rows\)/,
      );
      const driver = (db as unknown as { driver: { run(q: unknown): Promise<unknown> } }).driver;
      await driver.run(sql`UPDATE messages SET text = 'changed' WHERE id = (SELECT min(id) FROM messages)`);
      const mismatch = await cli(['migrate-sqlite-to-postgres', '-s', sqlitePath(), '-p', url, '-v'], {});
      expect(mismatch.code).toBe(1);
      expect(mismatch.stdout).toMatch(/^ {2}messages: SQLite \d+ rows .* MISMATCH$/m);
      expect(mismatch.stdout).toMatch(/^ {2}accounts: SQLite 2 rows .* PostgreSQL 3 rows .* MISMATCH$/m);
    } finally {
      await db.close();
    }
  });
});

describe.each(TEST_BACKENDS)('archive-cli maintenance scripts on %s', (backend) => {
  let t: TestStore;
  let env: Env;
  let media: string;
  const chatId = -1009000000001;

  const snapshot = async () => {
    const rows = await t.db.listMediaFiles();
    const albums = await t.db.listMessagesWithGroupedId();
    return JSON.stringify({ rows, albums, files: readdirSync(media, { recursive: true }).sort() });
  };

  beforeAll(async () => {
    t = await openTestStore(backend, { seed: false });
    const backup = temp();
    media = backup;
    env = { ...databaseEnv(t.config), BACKUP_PATH: backup };
    await t.db.upsertAccount({ id: 1 });
    await t.db.upsertChat({ accountId: 1, id: chatId, type: 'channel', title: 'Photos' });
    const at = (s: number) => new Date(Date.UTC(2026, 0, 5, 10, 0, s));
    await t.db.upsertMessages(
      [0, 1, 2, 30, 31, 60].map((s, i) => ({
        accountId: 1,
        chatId,
        id: i + 1,
        senderId: 42,
        date: at(s),
        rawData: i === 5 ? { grouped_id: 13_000_000_000_123 } : {},
      })),
    );
    mkdirSync(path.join(media, String(chatId)), { recursive: true });
    for (const id of [1, 2, 3, 4, 5]) {
      const file = `${chatId}/${chatId}_${id}_photo.jpg`;
      writeFileSync(path.join(media, file), id <= 3 ? 'same picture' : `picture ${id}`);
      await t.db.upsertMedia({
        accountId: 1,
        chatId,
        messageId: id,
        type: 'photo',
        filePath: file,
        downloaded: true,
      });
    }
    await t.db.upsertMedia({
      accountId: 1,
      chatId,
      messageId: 6,
      type: 'photo',
      filePath: path.join(media, `${chatId}/legacy.jpg`),
      downloaded: true,
    });
    writeFileSync(path.join(media, `${chatId}/legacy.jpg`), 'legacy');
    await t.db.addAvatar({ accountId: 1, chatId, photoId: '1', seenAt: at(0), filePath: 'avatars/kept.jpg' });
    mkdirSync(path.join(media, 'avatars'), { recursive: true });
    writeFileSync(path.join(media, 'avatars/kept.jpg'), 'kept');
    writeFileSync(path.join(media, 'avatars/stale.jpg'), 'stale');
  });
  afterAll(async () => t?.close());

  it('every script changes nothing with --dry-run', async () => {
    const before = await snapshot();
    for (const args of [
      ['detect-albums', '--window', '2'],
      ['deduplicate-media'],
      ['update-media-sizes', '--force'],
      ['normalize-grouped-ids'],
      ['cleanup-legacy-avatars', '--backup-path', path.dirname(media)],
      ['migrate-media-paths', '--media-path', media],
    ]) {
      const result = await cli([...args, '--dry-run'], env);
      expect(result.code, `${args[0]}: ${result.stderr}`).toBe(0);
      expect(result.stdout).toMatch(/^\[DRY RUN\] .* complete:/);
    }
    expect(await snapshot()).toBe(before);
  });

  it('migrate-media-paths makes absolute paths relative to the media folder', async () => {
    const result = await cli(['migrate-media-paths', '--media-path', media], env);
    expect(result.stdout).toContain('Media paths rewritten: 1');
    const rows = await t.db.listMediaFiles();
    expect(rows.find((r) => r.messageId === 6)?.filePath).toBe(`${chatId}/legacy.jpg`);
  });

  it('detect-albums groups photos of one sender within the window', async () => {
    const result = await cli(['detect-albums'], env);
    expect(result.stdout).toContain('Albums found: 2\n  Messages grouped: 5');
    const grouped = await t.db.listMessagesWithGroupedId();
    expect(grouped.filter((m) => m.raw?.grouped_id === `album_${chatId}_1`).map((m) => m.id)).toEqual([
      1, 2, 3,
    ]);
    expect(grouped.filter((m) => m.raw?.grouped_id === `album_${chatId}_4`).map((m) => m.id)).toEqual([4, 5]);
    expect((await cli(['detect-albums'], env)).stdout).toContain('Albums found: 0');
  });

  it('normalize-grouped-ids stores numeric grouped ids as strings', async () => {
    const result = await cli(['normalize-grouped-ids'], env);
    expect(result.stdout).toContain('Messages normalised: 1');
    const six = (await t.db.listMessagesWithGroupedId()).find((m) => m.id === 6);
    expect(typeof six?.raw?.grouped_id).toBe('string');
  });

  it('update-media-sizes reads the sizes from the files', async () => {
    const result = await cli(['update-media-sizes'], env);
    expect(result.stdout).toContain('Sizes updated: 6');
    const rows = await t.db.listMediaFiles();
    expect(rows.find((r) => r.messageId === 4)?.fileSize).toBe('picture 4'.length);
  });

  it('deduplicate-media keeps identical files once under _shared', async () => {
    const result = await cli(['deduplicate-media', '-v'], env);
    expect(result.stdout).toContain('Duplicate groups: 1\n  Files removed: 2');
    const rows = await t.db.listMediaFiles();
    const shared = rows.filter((r) => r.messageId <= 3).map((r) => r.filePath);
    expect(new Set(shared).size).toBe(1);
    expect(shared[0]).toMatch(/^media\/_shared\/[0-9a-f]{2}\/[0-9a-f]{64}$/);
    expect(readFileSync(path.join(media, shared[0] as string), 'utf8')).toBe('same picture');
    expect(existsSync(path.join(media, `${chatId}/${chatId}_2_photo.jpg`))).toBe(false);
    expect(existsSync(path.join(media, `${chatId}/${chatId}_4_photo.jpg`))).toBe(true);
  });

  it('migrate-media-paths after deduplicate-media leaves the shared files where they are', async () => {
    const before = (await t.db.listMediaFiles()).filter((r) => r.filePath?.startsWith('media/_shared/'));
    expect(before.length).toBeGreaterThan(1);
    const result = await cli(['migrate-media-paths', '--media-path', media], env);
    expect(result.stdout).toContain('Media paths rewritten: 0');
    const after = await t.db.listMediaFiles();
    for (const row of before) {
      const now = after.find((r) => r.id === row.id)?.filePath as string;
      expect(now).toBe(row.filePath);
      expect(readFileSync(path.join(media, now), 'utf8')).toBe('same picture');
    }
    // Spelled absolute, a shared file's path is shortened to the same relative place.
    const shared = before[0]?.filePath as string;
    expect(relativeMediaPath(path.join(path.resolve(media), shared), media)).toBe(shared);
    expect(relativeMediaPath(shared, media)).toBeNull();
  });

  it('cleanup-legacy-avatars deletes avatar files nothing refers to', async () => {
    const result = await cli(['cleanup-legacy-avatars', '--backup-path', media], env);
    expect(result.stdout).toContain('Avatar files removed: 1');
    expect(readdirSync(path.join(media, 'avatars'))).toEqual(['kept.jpg']);
  });
});

describe('archive-cli generate-dummy-db', () => {
  it('writes a demo archive with real media files and refuses to overwrite it without --force', async () => {
    const dir = temp();
    const first = await cli(['generate-dummy-db', '--data-dir', dir], { LOG_LEVEL: 'ERROR' });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^Demo archive written to .*archive\.db: 2 accounts, 6 chats, \d+ messages/);
    const photo = path.join(dir, 'backups', FIXTURE_FILES.photo.path);
    expect(readFileSync(photo).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(
      readFileSync(path.join(dir, 'backups', FIXTURE_FILES.voice.path))
        .subarray(0, 4)
        .toString(),
    ).toBe('OggS');
    const stats = await cli(['stats'], { DATABASE_PATH: path.join(dir, 'archive.db'), LOG_LEVEL: 'ERROR' });
    expect(stats.stdout).toContain('Total chats: 6');
    const size = statSync(path.join(dir, 'archive.db')).size;
    const again = await cli(['generate-dummy-db', '--data-dir', dir], {});
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('pass --force to replace it');
    expect(statSync(path.join(dir, 'archive.db')).size).toBe(size);
    expect(
      (await cli(['generate-dummy-db', '--data-dir', dir, '--force'], { LOG_LEVEL: 'ERROR' })).code,
    ).toBe(0);
  });
});
