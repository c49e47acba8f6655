/**
 * Where the archive's files live under `BACKUP_PATH`, written down once. The backup, the importer, the
 * demo archive and the viewer all go through these functions; the README's "Media on disk" section
 * describes the same layout.
 *
 *   <BACKUP_PATH>/<chat folder>/<storage media id><ext>         a message's file
 *   <BACKUP_PATH>/<chat folder>/.thumbs/<size>/<file name>.webp  its cached thumbnails
 *   <BACKUP_PATH>/media/_shared/<2 hex>/<sha256>                 a file shared by several chats (the chat
 *                                                                folders hold symbolic links to it)
 *   <BACKUP_PATH>/avatars/chats/<chat id>_<photo id>.jpg         every stored chat photo (the history)
 *   <BACKUP_PATH>/avatars/users/<user id>.jpg                    a sender's current photo
 *
 * The chat folder is the marked chat id for the first account and `<chat id>_account_<n>` for the others
 * (two accounts can hold different messages under the same id in a private chat). Paths stored in the
 * database (`media.file_path`) are relative to `BACKUP_PATH`.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';

export const THUMBNAIL_SIZES = [200, 400] as const;
export type ThumbnailSize = (typeof THUMBNAIL_SIZES)[number];

/** The storage media id `{chat_id}_{message_id}_{type}` (unique per account). */
export const storageMediaId = (chatId: number, messageId: number, type: string) =>
  `${chatId}_${messageId}_${type}`;

export const chatFolder = (accountId: number, chatId: number) =>
  accountId === 1 ? String(chatId) : `${chatId}_account_${accountId}`;

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'video/mp4': '.mp4',
  'video/webm': '.webm',
  'video/quicktime': '.mov',
  'audio/ogg': '.ogg',
  'audio/mpeg': '.mp3',
  'audio/mp4': '.m4a',
  'application/pdf': '.pdf',
  'application/x-tgsticker': '.tgs',
  'text/plain': '.txt',
};

/** The file's extension: from its original name when it has one, else from its type. */
export function extensionFor(
  fileName: string | null | undefined,
  mimeType: string | null | undefined,
): string {
  const fromName = fileName ? path.extname(fileName).toLowerCase() : '';
  if (/^\.[a-z0-9]{1,8}$/.test(fromName)) return fromName;
  return (mimeType && EXTENSIONS[mimeType.toLowerCase()]) || '';
}

/** Relative path of a message's file. */
export function mediaFilePath(
  accountId: number,
  chatId: number,
  messageId: number,
  type: string,
  ext: string,
): string {
  return path.posix.join(chatFolder(accountId, chatId), `${storageMediaId(chatId, messageId, type)}${ext}`);
}

/** Relative path of a shared (deduplicated) file, by its SHA-256 in hex. */
export function sharedFilePath(sha256: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error('not a SHA-256 hex digest');
  return path.posix.join('media', '_shared', sha256.slice(0, 2), sha256);
}

export const chatAvatarPath = (chatId: number, photoId: string) =>
  path.posix.join('avatars', 'chats', `${chatId}_${photoId}.jpg`);

export const userAvatarPath = (userId: number) => path.posix.join('avatars', 'users', `${userId}.jpg`);

/** The cached thumbnail of a file (absolute path in, absolute path out), beside the file. */
export function thumbnailPath(absoluteFile: string, size: ThumbnailSize): string {
  return path.join(
    path.dirname(absoluteFile),
    '.thumbs',
    String(size),
    `${path.basename(absoluteFile)}.webp`,
  );
}

/**
 * The absolute path of a stored relative path, only when it names an existing file inside `root` after
 * every symbolic link is followed; null otherwise (missing, outside, or an absolute or `..` path).
 */
export async function resolveInside(
  root: string,
  relative: string | null | undefined,
): Promise<string | null> {
  if (!relative || relative.includes('\0')) return null;
  const normal = path.posix.normalize(relative.replaceAll('\\', '/'));
  if (path.posix.isAbsolute(normal) || normal === '..' || normal.startsWith('../')) return null;
  const candidate = path.join(root, normal);
  try {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(candidate)]);
    return realFile.startsWith(realRoot + path.sep) ? candidate : null;
  } catch {
    return null;
  }
}
