/**
 * Serving archived media: finding a message's file, its thumbnail, a chat's or a sender's avatar, the
 * gallery and counts, and running the operator's open commands. Files are only ever reached through
 * media-layout.ts, and only inside the backup folder.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { hasFile, hasPicture, isInline, isVideo, parseMediaKey } from '../model/media-kinds';
import {
  chatAvatarPath,
  resolveInside,
  THUMBNAIL_SIZES,
  type ThumbnailSize,
  userAvatarPath,
} from '../model/media-layout';
import type { ArchiveStore, ChatKey, StoredMediaItem } from '../store/store';
import {
  ArchiveError,
  AVATAR_NOT_FOUND,
  INTERNAL_ERROR,
  invalid,
  MEDIA_NOT_FOUND,
  notFound,
  unsupportedType,
} from './errors';
import { fileServed, mediaUrl, thumbUrl } from './present';
import type { Thumbnailer } from './thumbnails';

export interface MediaDeps {
  store: ArchiveStore;
  backupPath: string;
  thumbnails: Thumbnailer;
}

export interface MediaFile {
  /** Absolute path inside the backup folder. */
  path: string;
  mimeType: string;
  fileName: string;
  item: StoredMediaItem;
}

/** The file of a media key, or 404 'Media not found' (unknown or malformed key, no file, file missing). */
export async function findMediaFile(deps: MediaDeps, chat: ChatKey, key: string): Promise<MediaFile> {
  const parsed = parseMediaKey(key);
  const item = parsed && (await deps.store.getMediaItem(chat, parsed.messageId, parsed.type));
  if (!item?.downloaded || !hasFile(item.type)) throw notFound(MEDIA_NOT_FOUND);
  const file = await resolveInside(deps.backupPath, item.filePath);
  if (!file) throw notFound(MEDIA_NOT_FOUND);
  return {
    path: file,
    mimeType: item.mimeType?.toLowerCase() || 'application/octet-stream',
    fileName: item.fileName || path.basename(file),
    item,
  };
}

export type Disposition = 'inline' | 'attachment';

export const dispositionOf = (mimeType: string, forceDownload: boolean): Disposition =>
  !forceDownload && isInline(mimeType) ? 'inline' : 'attachment';

/**
 * An RFC 6266 `Content-Disposition`: a plain ASCII `filename` every client reads, plus `filename*` in
 * UTF-8 (RFC 8187) when the name is not plain ASCII.
 */
export function contentDisposition(kind: Disposition, fileName: string): string {
  const base = fileName.replace(/[\\/]/g, '_');
  const ascii = base.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const header = `${kind}; filename="${ascii}"`;
  if (ascii === base) return header;
  const encoded = encodeURIComponent(base).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${header}; filename*=UTF-8''${encoded}`;
}

/** The thumbnail file of a media key; 404 for a type without a picture or a failed generation. */
export async function findThumbnail(
  deps: MediaDeps,
  chat: ChatKey,
  key: string,
  size: number,
): Promise<string> {
  if (!THUMBNAIL_SIZES.includes(size as ThumbnailSize)) throw invalid('size must be 200 or 400');
  const media = await findMediaFile(deps, chat, key);
  if (!hasPicture(media.item.type, media.item.mimeType)) throw notFound(MEDIA_NOT_FOUND);
  try {
    return await deps.thumbnails.get({
      source: media.path,
      size: size as ThumbnailSize,
      video: isVideo(media.item.type, media.item.mimeType),
    });
  } catch {
    throw notFound(MEDIA_NOT_FOUND);
  }
}

/** The chat's current photo, or the one of `photoId` from its history. */
export async function findChatAvatar(deps: MediaDeps, chat: ChatKey, photoId?: string): Promise<string> {
  const seen = await deps.store.findChatAvatar(chat, photoId);
  const file = seen?.photo_id
    ? await resolveInside(deps.backupPath, chatAvatarPath(chat.chatId, seen.photo_id))
    : null;
  if (!file) throw notFound(AVATAR_NOT_FOUND);
  return file;
}

/** The photo of the user who sent the message. */
export async function findSenderAvatar(deps: MediaDeps, chat: ChatKey, messageId: number): Promise<string> {
  const sender = await deps.store.findMessageSender(chat, messageId);
  const file =
    typeof sender === 'number' ? await resolveInside(deps.backupPath, userAvatarPath(sender)) : null;
  if (!file) throw notFound(AVATAR_NOT_FOUND);
  return file;
}

export interface GalleryParams {
  types?: string | undefined;
  limit?: number | undefined;
  before_id?: string | undefined;
  after_id?: string | undefined;
}

export async function listGallery(
  deps: MediaDeps,
  chat: ChatKey,
  params: GalleryParams,
  noDownload: boolean,
) {
  if (params.before_id !== undefined && params.after_id !== undefined) {
    throw invalid('Send before_id or after_id, not both');
  }
  const cursorKey = params.before_id ?? params.after_id;
  let cursor: number | undefined;
  if (cursorKey !== undefined) {
    const parsed = parseMediaKey(cursorKey);
    const known = parsed && (await deps.store.getMediaItem(chat, parsed.messageId, parsed.type));
    // A cursor the chat does not have gives an empty page, never the first page again.
    if (!known) return { items: [], has_more: false };
    cursor = known.messageId;
  }
  const types = params.types
    ?.split(',')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
  const page = await deps.store.listGallery(chat, {
    limit: params.limit ?? 50,
    ...(types && types.length > 0 && { types }),
    ...(params.before_id !== undefined && { beforeMessageId: cursor }),
    ...(params.after_id !== undefined && { afterMessageId: cursor }),
  });
  return {
    items: page.items.map((item) => {
      const served = fileServed(
        { type: item.type, downloaded: item.downloaded, file_path: item.filePath },
        noDownload,
      );
      return {
        id: item.key,
        message_id: item.messageId,
        type: item.type,
        thumb_url: served && hasPicture(item.type, item.mimeType) ? thumbUrl(chat.ref, item.key) : null,
        media_url: served ? mediaUrl(chat.ref, item.key) : null,
        file_name: item.fileName,
        file_size: item.fileSize,
        mime_type: item.mimeType,
        width: item.width,
        height: item.height,
        duration: item.duration,
        downloaded: noDownload ? false : item.downloaded,
        date: item.date,
        text: item.text,
        is_deleted: item.isDeleted,
        deleted_at: item.deletedAt,
      };
    }),
    has_more: page.hasMore,
  };
}

export const OPEN_WINDOW_MS = 500;
export const NOT_CONFIGURED = 'Not configured';

/**
 * Runs the operator's command with the file as its only argument (no shell, so nothing in the name is
 * ever interpreted). A command that cannot start, or exits non-zero within half a second, is a 500.
 */
export async function openWithCommand(
  deps: MediaDeps,
  chat: ChatKey,
  key: string,
  command: string | null,
  inlineOnly: boolean,
): Promise<{ ok: true }> {
  if (!command) throw notFound(NOT_CONFIGURED);
  const media = await findMediaFile(deps, chat, key);
  if (inlineOnly && !isInline(media.mimeType)) {
    throw unsupportedType('This media type cannot be opened inline');
  }
  // Control characters (a newline above all) break the command lines of desktop openers.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point of the check.
  if (/[\u0000-\u001f\u007f]/.test(media.path)) throw invalid('File name cannot be passed to the command');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command, [media.path], { shell: false, stdio: 'ignore', detached: true });
    const fail = () => reject(new ArchiveError('internal', INTERNAL_ERROR));
    const timer = setTimeout(() => {
      child.removeAllListeners();
      child.on('error', () => {});
      child.unref();
      resolve();
    }, OPEN_WINDOW_MS);
    child.once('error', () => {
      clearTimeout(timer);
      fail();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else fail();
    });
  });
  return { ok: true };
}
