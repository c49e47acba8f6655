// `archive-cli import` stopped by SIGTERM in the middle of a chat, on both backends: the chats done are
// kept, the chat in progress is rolled back with the media files it had copied, the command says so and
// exits 1, and the same import with --merge finishes the job.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../common/logger';
import { ROOT } from '../../common/services';
import { driverOf } from '../store/archive-store';
import { migrateOpenStore } from '../store/migrate';
import { openArchiveStore } from '../store/open';
import { raw, sql } from '../store/sql';
import { createTestDatabase, TEST_BACKENDS, type TestDatabase } from '../store/testing/databases';
import { cli, databaseEnv, tempDir } from './test-cli';

const SMALL = { id: 4001, messages: 30 };
const LARGE = { id: 4002, messages: 40_000 };

/** A whole-account export: a small chat, then a large one whose first message carries a photo. */
async function accountExport(): Promise<string> {
  const dir = tempDir('specyard-archive-interrupt-');
  mkdirSync(path.join(dir, 'photos'));
  writeFileSync(path.join(dir, 'photos', 'first.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
  const out = createWriteStream(path.join(dir, 'result.json'));
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('{"personal_information":{"user_id":77,"first_name":"Owner"},"chats":{"list":[');
  for (const [n, chat] of [SMALL, LARGE].entries()) {
    await write(
      `${n ? ',' : ''}{"name":"Chat ${chat.id}","type":"private_group","id":${chat.id},"messages":[`,
    );
    for (let i = 1; i <= chat.messages; i++) {
      const date = 1_700_000_000 + i * 11;
      const message: Record<string, unknown> = {
        id: i,
        type: 'message',
        date: new Date(date * 1000).toISOString().slice(0, 19),
        date_unixtime: String(date),
        from: `Member ${i % 7}`,
        from_id: `user${100 + (i % 7)}`,
        text: `message ${i} of chat ${chat.id}`,
      };
      if (chat === LARGE && i === 1)
        Object.assign(message, { photo: 'photos/first.jpg', width: 1, height: 1 });
      await write(`${i === 1 ? '' : ','}${JSON.stringify(message)}`);
    }
    await write(']}');
  }
  await write(']}}');
  out.end();
  await once(out, 'finish');
  return dir;
}

function mediaFiles(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

describe.each(TEST_BACKENDS)('archive-cli import stopped by SIGTERM on %s', (backend) => {
  let database: TestDatabase;
  let exportDir: string;
  const media = tempDir('specyard-archive-interrupt-media-');
  const env = () => ({ ...databaseEnv(database.config), BACKUP_PATH: media });
  beforeAll(async () => {
    database = await createTestDatabase(backend);
    exportDir = await accountExport();
    expect((await cli(['migrate'], env())).code).toBe(0);
  }, 120_000);
  afterAll(() => database.drop());

  const counts = async () => {
    const db = await openArchiveStore(database.config, silentLogger());
    try {
      const accountId = (await db.importAccountId()) ?? 0;
      return {
        // A group's id is stored marked (negative), as the platform writes it.
        small: await db.countChatMessages({ accountId, chatId: -SMALL.id }),
        large: await db.countChatMessages({ accountId, chatId: -LARGE.id }),
      };
    } finally {
      await db.close();
    }
  };

  it('keeps the chats done, rolls back the chat in progress and its files, and --merge finishes', async () => {
    // The TypeScript loader inside the command's own process, as the compiled command runs: tsx's
    // command-line wrapper relays a signal to a busy child by killing it when it does not answer in 30 ms.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'src/archive/cli.ts'), 'import', '-p', exportDir],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env() } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    // The small chat's 'chat imported' line: the large chat is being written when the signal comes.
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const firstChatDone = new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('chat imported')) resolve();
      });
      // A command that ends before its first chat (it failed to start) ends the wait, with what it said.
      void exited.then((code) => reject(new Error(`the import exited ${code} first: ${stderr}`)));
    });
    await firstChatDone;
    child.kill('SIGTERM');
    expect(await exited, stderr).toBe(1);
    expect(stderr).toContain(
      'Import failed: interrupted by a stop signal after 1 chat (kept: Chat 4001); the chat in progress was ' +
        'rolled back. Run the same import with --merge to finish it',
    );
    expect(stdout).not.toContain('Import complete');
    expect(await counts()).toEqual({ small: SMALL.messages, large: 0 });
    expect(mediaFiles(media)).toEqual([]);
    // The cached figures count the chat that was kept.
    expect((await cli(['stats'], env())).stdout).toContain(`Total messages: ${SMALL.messages}`);

    const finish = await cli(['import', '-p', exportDir, '--merge'], env());
    expect(finish.code, finish.stderr).toBe(0);
    expect(finish.stdout).toContain(`Already archived: ${SMALL.messages}`);
    expect(await counts()).toEqual({ small: SMALL.messages, large: LARGE.messages });
    expect(mediaFiles(media)).toHaveLength(1);
  }, 300_000);
});

describe('an import on a full disk (SQLite)', () => {
  it('keeps the chats done, names them, and says the disk is full and how to finish', async () => {
    const database = await createTestDatabase('sqlite');
    const exportDir = await accountExport();
    const media = tempDir('specyard-archive-full-media-');
    const db = await openArchiveStore(database.config, silentLogger());
    try {
      await migrateOpenStore(db);
      // The database may grow a little past its size now, not by the large chat's 40,000 messages: SQLite
      // answers SQLITE_FULL, as it does when the disk itself is full.
      const driver = driverOf(db);
      const pages = Number((await driver.get(sql`PRAGMA page_count`))?.page_count);
      await driver.get(sql`PRAGMA max_page_count = ${raw(String(pages + 200))}`);
      const { importExport } = await import('../importers/run-import');
      const stopped = importExport(db, {
        dir: exportDir,
        chatId: null,
        dryRun: false,
        skipMedia: false,
        merge: false,
        mediaRoot: media,
        logger: silentLogger(),
      });
      await expect(stopped).rejects.toThrow(
        'the disk is full (the archive; SQLITE_FULL) after 1 chat (kept: Chat 4001); the chat in progress ' +
          'was rolled back. Run the same import with --merge to finish it',
      );
      expect(await db.countTableRows('messages')).toBe(SMALL.messages);
    } finally {
      await db.close();
      await database.drop();
      rmSync(exportDir, { recursive: true, force: true });
      rmSync(media, { recursive: true, force: true });
    }
  }, 300_000);
});

describe('archive-cli import into a database it cannot create', () => {
  it('names the database and says why', async () => {
    const dir = tempDir('specyard-archive-nowhere-');
    const blocker = path.join(dir, 'not-a-folder');
    writeFileSync(blocker, '');
    try {
      const result = await cli(['import', '-p', dir], { DATABASE_PATH: path.join(blocker, 'archive.db') });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `^Import failed: cannot write the database at ${blocker}/archive.db: it or its folder is read-only or missing \\(\\w+\\)`,
        ),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
