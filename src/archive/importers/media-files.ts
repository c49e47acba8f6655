/**
 * Imported media files in the archive's one media layout (domain/media-layout.ts): paths relative to
 * BACKUP_PATH, one folder per chat, files named from the storage media id, shared files under
 * `media/_shared/<2 hex>/<sha256>`.
 */
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, createReadStream, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
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

/** Copies files into the media directory and can take back what it copied (a failed transaction). */
export class MediaCopier {
  private readonly copied: string[] = [];

  constructor(readonly root: string) {}

  copy(source: string, relative: string): void {
    const target = path.join(this.root, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(source, target);
    // The copy takes the source's mode (an export's 0644); the archive's files are its owner's alone.
    chmodSync(target, 0o600);
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
