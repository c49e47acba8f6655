/**
 * Writing media files under the backup folder, where the media layout (domain/media-layout.ts) says they
 * go: a download lands in a `.part` file first, so a broken download resumes where it stopped and a
 * finished file is never half-written; then it is renamed into place with its SHA-256.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { chatAvatarPath, extensionFor, mediaFilePath } from '../model/media-layout';

const DEFAULT_EXTENSION: Record<string, string> = {
  photo: '.jpg',
  video: '.mp4',
  video_note: '.mp4',
  voice: '.ogg',
  audio: '.mp3',
  sticker: '.webp',
  animation: '.mp4',
};

/** The file's extension: the layout's rule (original name, then type), else one by media kind. */
export function mediaExtension(type: string, fileName: string | null, mimeType: string | null): string {
  return extensionFor(fileName, mimeType) || DEFAULT_EXTENSION[type] || '.bin';
}

/** A message's file, relative to the backup folder, where the media layout puts it. */
export function chatMediaPath(
  accountId: number,
  chatId: number,
  messageId: number,
  type: string,
  extension: string,
): string {
  return mediaFilePath(accountId, chatId, messageId, type, extension);
}

/** A chat photo, relative to the backup folder (the history keeps every one). */
export function avatarPath(chatId: number, photoId: string): string {
  return chatAvatarPath(chatId, photoId);
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Appends the chunks to `<file>.part` from the size it already has, then renames it to `file`. `source`
 * is called with that size (the offset to resume from).
 */
export async function downloadResumable(
  root: string,
  relative: string,
  source: (offset: number) => AsyncIterable<Uint8Array>,
): Promise<{ fileSize: number; contentHash: string }> {
  const target = path.join(root, relative);
  const partial = `${target}.part`;
  await mkdir(path.dirname(target), { recursive: true });
  const offset = await stat(partial).then(
    (s) => s.size,
    () => 0,
  );
  const handle = await open(partial, 'a');
  try {
    for await (const chunk of source(offset)) await handle.write(chunk);
  } finally {
    await handle.close();
  }
  await rename(partial, target);
  return { fileSize: (await stat(target)).size, contentHash: await sha256Of(target) };
}

export async function writeFileAtomic(root: string, relative: string, bytes: Uint8Array): Promise<void> {
  await downloadResumable(root, relative, async function* () {
    yield bytes;
  });
}

/**
 * Moves files lying directly in `media/_shared` into subfolders named by the first two characters of
 * their SHA-256 (the layout shared files have since); returns how many moved.
 */
export async function moveSharedMedia(root: string): Promise<number> {
  const shared = path.join(root, 'media', '_shared');
  const entries = await readdir(shared, { withFileTypes: true }).catch(() => []);
  let moved = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const from = path.join(shared, entry.name);
    const prefix = (await sha256Of(from)).slice(0, 2);
    await mkdir(path.join(shared, prefix), { recursive: true });
    await rename(from, path.join(shared, prefix, entry.name));
    moved++;
  }
  return moved;
}
