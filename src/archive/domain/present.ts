/**
 * From what the store holds to what a caller gets: the media, thumbnail and avatar URLs (an avatar URL
 * only when its file is on disk, so a client never asks for hundreds of URLs that can only 404), and the
 * no-download rule (no file paths or URLs, `downloaded` false).
 */
import { stat } from 'node:fs/promises';
import { hasFile, hasPicture } from '../model/media-kinds';
import { chatAvatarPath, resolveInside, userAvatarPath } from '../model/media-layout';
import { withUpstreamShapes } from '../model/upstream-shapes';
import type {
  Chat,
  ChatAvatar,
  ChatKey,
  Message,
  MessageMedia,
  SearchResult,
  StoredChat,
  StoredChatAvatar,
  StoredMedia,
  StoredMessage,
  StoredSearchResult,
} from '../store/store';

export const mediaUrl = (ref: string, key: string) => `/media/${ref}/${key}`;
export const thumbUrl = (ref: string, key: string, size = 200) => `/media/thumb/${size}/${ref}/${key}`;
export const chatAvatarUrl = (ref: string, photoId?: string) =>
  photoId === undefined
    ? `/media/avatar/${ref}`
    : `/media/avatar/${ref}?photo_id=${encodeURIComponent(photoId)}`;
export const senderAvatarUrl = (ref: string, messageId: number) => `/media/avatar/${ref}/${messageId}`;

/** Whether files exist under the backup folder; each path is looked at once per instance. */
export class FileProbe {
  private readonly seen = new Map<string, Promise<boolean>>();
  constructor(readonly root: string) {}

  exists(relative: string): Promise<boolean> {
    let found = this.seen.get(relative);
    if (!found) {
      found = resolveInside(this.root, relative).then(async (file) => {
        if (!file) return false;
        return (await stat(file)).isFile();
      });
      found = found.catch(() => false);
      this.seen.set(relative, found);
    }
    return found;
  }
}

export interface Audience {
  noDownload: boolean;
  files: FileProbe;
}

/** Whether the media's file is in the archive for this caller. */
export const fileServed = (m: Pick<StoredMedia, 'type' | 'downloaded' | 'file_path'>, noDownload: boolean) =>
  !noDownload && m.downloaded && m.file_path !== null && hasFile(m.type);

export function presentMedia(media: StoredMedia, ref: string, noDownload: boolean): MessageMedia {
  const served = fileServed(media, noDownload);
  return {
    ...media,
    url: served ? mediaUrl(ref, media.id) : null,
    thumb_url: served && hasPicture(media.type, media.mime_type) ? thumbUrl(ref, media.id) : null,
    file_path: noDownload ? null : media.file_path,
    downloaded: noDownload ? false : media.downloaded,
  };
}

export async function presentMessages(
  messages: StoredMessage[],
  chat: ChatKey,
  audience: Audience,
): Promise<Message[]> {
  return Promise.all(
    messages.map(async ({ media, ...rest }) => {
      const sender = rest.sender_id;
      const hasAvatar = sender !== null && (await audience.files.exists(userAvatarPath(sender)));
      const message: Message = withUpstreamShapes({
        ...rest,
        sender_avatar_url: hasAvatar ? senderAvatarUrl(chat.ref, rest.id) : null,
      });
      if (media) message.media = presentMedia(media, chat.ref, audience.noDownload);
      return message;
    }),
  );
}

async function avatarUrlOf(chatId: number, ref: string, photoId: string | null, files: FileProbe) {
  return photoId !== null && (await files.exists(chatAvatarPath(chatId, photoId)))
    ? chatAvatarUrl(ref)
    : null;
}

export async function presentChat({ avatar_photo_id, ...chat }: StoredChat, files: FileProbe): Promise<Chat> {
  const avatarUrl =
    chat.id === undefined ? null : await avatarUrlOf(chat.id, chat.ref, avatar_photo_id, files);
  return { ...chat, avatar_url: avatarUrl };
}

export function presentSearchResults(
  results: StoredSearchResult[],
  files: FileProbe,
): Promise<SearchResult[]> {
  return Promise.all(
    results.map(async ({ chat: { id, avatar_photo_id, ...chat }, ...rest }) => ({
      ...rest,
      // The flat fields the upstream viewer's page reads on each result, beside our nested chat.
      chat_ref: chat.ref,
      chat_title: chat.title ?? ([chat.first_name, chat.last_name].filter(Boolean).join(' ') || null),
      chat_type: chat.type,
      is_outgoing: rest.sender_account_id !== null,
      chat: { ...chat, avatar_url: await avatarUrlOf(id, chat.ref, avatar_photo_id, files) },
    })),
  );
}

export function presentChatAvatars(
  avatars: StoredChatAvatar[],
  chat: ChatKey,
  files: FileProbe,
): Promise<ChatAvatar[]> {
  return Promise.all(
    avatars.map(async (a) => ({
      ...a,
      url: a.photo_id === null ? null : chatAvatarUrl(chat.ref, a.photo_id),
      available: a.photo_id !== null && (await files.exists(chatAvatarPath(chat.chatId, a.photo_id))),
    })),
  );
}
