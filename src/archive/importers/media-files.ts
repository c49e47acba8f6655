/**
 * Imported media files in the archive's one media layout (domain/media-layout.ts): paths relative to
 * BACKUP_PATH, one folder per chat, files named from the storage media id, shared files under
 * `media/_shared/<2 hex>/<sha256>`.
 */
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../common/logger';
import { extensionFor, mediaFilePath, sharedFilePath } from '../model/media-layout';

export function chatMediaPath(
  accountId: number,
  chatId: number,
  messageId: number,
  type: string,
  originalName: string | null,
): string {
  return mediaFilePath(accountId, chatId, messageId, type, extensionFor(originalName, null));
}

export const sharedMediaPath = sharedFilePath;

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The journal of a run's copies not yet committed, beside them: `.copies-in-progress.<pid>`. */
const JOURNAL = '.copies-in-progress.';

/**
 * Copies files into the media directory and can take back what it copied (a failed transaction). Each file
 * is named in a journal before it is copied, and the journal goes once its rows are committed or its copies
 * taken back: the copies of a run that died (kill -9, a lost machine) stay named there for the next run
 * (recoverInterruptedCopies).
 */
export class MediaCopier {
  private readonly copied: string[] = [];
  private readonly journal: string;

  constructor(
    readonly root: string,
    /** Whose journal this is (tests stand in for a process that died). */
    run: number = process.pid,
  ) {
    this.journal = path.join(root, `${JOURNAL}${run}`);
  }

  copy(source: string, relative: string): void {
    const target = path.join(this.root, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    appendFileSync(this.journal, `${relative}\n`, { mode: 0o600 });
    copyFileSync(source, target);
    // The copy takes the source's mode (an export's 0644); the archive's files are its owner's alone.
    chmodSync(target, 0o600);
    this.copied.push(target);
  }

  /** Forget the files copied so far: they belong to committed rows now. */
  commit(): void {
    this.copied.length = 0;
    rmSync(this.journal, { force: true });
  }

  rollback(): void {
    for (const file of this.copied.splice(0)) rmSync(file, { force: true });
    rmSync(this.journal, { force: true });
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The copies of runs that died before committing or taking them back: each file their journals name that
 * no row names (`inUse`) is removed; one a row names is kept (a later run adopted it). Journals of runs
 * still alive are left alone. Returns how many files were removed.
 */
export async function recoverInterruptedCopies(
  root: string,
  inUse: (paths: readonly string[]) => Promise<Set<string>>,
): Promise<number> {
  if (!existsSync(root)) return 0;
  let removed = 0;
  for (const name of readdirSync(root)) {
    if (!name.startsWith(JOURNAL)) continue;
    const pid = Number(name.slice(JOURNAL.length));
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) continue;
    const journal = path.join(root, name);
    const listed = readFileSync(journal, 'utf8')
      .split('\n')
      .filter((line) => line !== '' && path.resolve(root, line).startsWith(path.resolve(root) + path.sep));
    const used = await inUse(listed);
    for (const relative of new Set(listed)) {
      const file = path.join(root, relative);
      if (used.has(relative) || !existsSync(file)) continue;
      rmSync(file, { force: true });
      removed++;
    }
    rmSync(journal, { force: true });
  }
  return removed;
}

/** The media files an import or merge that died had copied without rows are removed before this run. */
export async function recoverCopies(
  db: { filePathsInUse(paths: readonly string[]): Promise<Set<string>> },
  options: { mediaRoot: string; logger: Logger },
): Promise<void> {
  const removed = await recoverInterruptedCopies(options.mediaRoot, (paths) => db.filePathsInUse(paths));
  if (removed > 0)
    options.logger.info({ removed }, 'removed media files a stopped import or merge had copied');
}
