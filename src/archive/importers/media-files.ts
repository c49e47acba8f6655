/**
 * Where imported media files go under the media directory (BACKUP_PATH/media): one folder per chat,
 * each file named from its storage media id (`{chat_id}_{message_id}_{type}` plus the original
 * extension); shared files live under `_shared/<first 2 hex of the SHA-256>/<sha256>`. The database
 * keeps the path relative to the media directory.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, createReadStream, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

export function chatMediaPath(chatId: number, storageId: string, originalName: string | null): string {
  const ext = originalName
    ? path
        .extname(originalName)
        .toLowerCase()
        .replace(/[^.a-z0-9]/g, '')
    : '';
  return path.posix.join(String(chatId), `${storageId}${ext}`);
}

export function sharedMediaPath(sha256: string): string {
  return path.posix.join('_shared', sha256.slice(0, 2), sha256);
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Copies files into the media directory and can take back what it copied (a failed transaction). */
export class MediaCopier {
  private readonly copied: string[] = [];

  constructor(readonly root: string) {}

  copy(source: string, relative: string): void {
    const target = path.join(this.root, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(source, target);
    this.copied.push(target);
  }

  /** Forget the files copied so far: they belong to committed rows now. */
  commit(): void {
    this.copied.length = 0;
  }

  rollback(): void {
    for (const file of this.copied.splice(0)) rmSync(file, { force: true });
  }
}
