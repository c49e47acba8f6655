/**
 * `archive-cli merge` into PostgreSQL killed (kill -9) half-way, after it drew new account ids from the
 * sequence and copied the source's media files: the target keeps nothing of it, the next dry run prints
 * the ids the next merge takes, and that merge removes the files the dead run had copied before copying
 * them again under its own rows.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../common/cli/command';
import { createLogger } from '../../common/logger';
import { ROOT } from '../../common/services';
import { FIXTURE_FILES } from '../demo/files';
import { openTestStore, type TestStore } from '../store/testing/databases';
import { runMerge } from './merge';
import { databaseEnv, mintOwnRefs, tempDir } from './test-cli';

const files = (root: string): string[] =>
  existsSync(root)
    ? readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
        .sort()
    : [];

/** The merge in a process of its own that stops for good once the media table is copied. */
function mergeUntilMedia(env: Record<string, string>, source: string, sourceMedia: string): ChildProcess {
  const script = `
    import { runMerge } from './src/archive/cli/merge.ts';
    import { silentLogger } from './src/common/logger.ts';
    const io = { out: () => {}, err: (s) => process.stderr.write(s + '\\n'), errWrite: () => {} };
    await runMerge({ env: process.env, logger: silentLogger(), io }, { source: ${JSON.stringify(source)}, 'source-media': ${JSON.stringify(sourceMedia)} }, {
      afterTable: async (table) => {
        if (table !== 'media') return;
        process.send('media copied');
        await new Promise(() => {});
      },
    });`;
  return spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

describe('archive-cli merge into PostgreSQL killed half-way', () => {
  let target: TestStore;
  let source: TestStore;
  let sourceMedia: string;
  let media: string;
  const cleanup: string[] = [];
  beforeAll(async () => {
    target = await openTestStore('postgresql');
    source = await openTestStore('sqlite');
    await mintOwnRefs(source.db);
    sourceMedia = tempDir();
    media = tempDir();
    cleanup.push(sourceMedia, media);
    mkdirSync(path.dirname(path.join(sourceMedia, FIXTURE_FILES.photo.path)), { recursive: true });
    writeFileSync(path.join(sourceMedia, FIXTURE_FILES.photo.path), 'photo bytes of the source');
  });
  afterAll(async () => {
    await target?.close();
    await source?.close();
    for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
  });

  it('leaves no rows, gives the next merge the ids its dry run prints, and removes the dead run’s files', async () => {
    const env = { ...databaseEnv(target.config), BACKUP_PATH: media } as Record<string, string>;
    const sourcePath = source.config.backend === 'sqlite' ? source.config.path : '';
    const accountsBefore = await target.db.countTableRows('accounts');
    const messagesBefore = await target.db.countTableRows('messages');

    const child = mergeUntilMedia(env, sourcePath, sourceMedia);
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`the merge ended first (${code})`)));
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    // Nothing committed; the dead run's copy is on disk, named in its journal.
    expect(await target.db.countTableRows('accounts')).toBe(accountsBefore);
    expect(await target.db.countTableRows('messages')).toBe(messagesBefore);
    const left = files(media);
    expect(left.some((f) => f.startsWith('.copies-in-progress.'))).toBe(true);
    expect(left.filter((f) => !f.startsWith('.')).length).toBe(1);

    const lines: Record<string, unknown>[] = [];
    const ctx = (): CommandContext & { out: string[] } => {
      const out: string[] = [];
      return {
        env,
        logger: createLogger('archive', 'info', { write: (line: string) => lines.push(JSON.parse(line)) }),
        io: { out: (s) => out.push(s), err: (s) => out.push(s), errWrite: () => {} },
        out,
      };
    };
    const dry = ctx();
    expect(await runMerge(dry, { source: sourcePath, 'source-media': sourceMedia, 'dry-run': true })).toBe(0);
    const planned = /Account 1 -> account (\d+)/.exec(dry.out.join('\n'))?.[1];
    expect(Number(planned)).toBe(accountsBefore + 1);

    const real = ctx();
    expect(await runMerge(real, { source: sourcePath, 'source-media': sourceMedia })).toBe(0);
    expect(real.out.join('\n')).toContain(`Account 1 -> account ${planned}`);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'removed media files a stopped import or merge had copied',
        removed: 1,
      }),
    );
    // One copy of the photo, under the rows of the merge that finished; no journal left.
    const after = files(media);
    expect(after.filter((f) => f.startsWith('.'))).toEqual([]);
    expect(after).toHaveLength(1);
    expect(await target.db.filePathsInUse(after)).toEqual(new Set(after));
  });
});
