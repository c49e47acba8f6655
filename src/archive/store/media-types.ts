/**
 * What the store hands over about media, avatars and exports. The store returns what is stored (file
 * paths, photo ids, download flags); the domain (domain/present.ts) turns them into the API's URLs and
 * applies the no-download rule, so no URL is ever built here.
 */
import type { components } from '../../../generated/archive/types';

type Schemas = components['schemas'];
type Chat = Schemas['Chat'];
type Message = Schemas['Message'];
type MessageMedia = Schemas['MessageMedia'];
type SearchResult = Schemas['SearchResult'];

/** A message's media as stored: no URLs; `file_path` relative to `BACKUP_PATH`. */
export type StoredMedia = Omit<MessageMedia, 'url' | 'thumb_url'>;
export type StoredMessage = Omit<Message, 'media' | 'sender_avatar_url'> & { media?: StoredMedia };
/** A chat with the photo id of its current avatar instead of a URL. */
export type StoredChat = Omit<Chat, 'avatar_url'> & { avatar_photo_id: string | null };
/** A search result as stored: the chat nested once (the flat copies of its fields are the presenter's). */
export type StoredSearchResult = Omit<
  SearchResult,
  'chat' | 'chat_ref' | 'chat_title' | 'chat_type' | 'is_outgoing'
> & {
  chat: Omit<SearchResult['chat'], 'avatar_url'> & { id: number; avatar_photo_id: string | null };
};
/** One sighting of a chat photo; `photo_id` null records its removal. */
export interface StoredChatAvatar {
  photo_id: string | null;
  seen_at: string;
}

/** One media row of a chat, with what the gallery shows of its message. */
export interface StoredMediaItem {
  /** The media key `{message_id}_{type}`. */
  key: string;
  messageId: number;
  type: string;
  filePath: string | null;
  fileName: string | null;
  fileSize: number | null;
  mimeType: string | null;
  width: number | null;
  height: number | null;
  duration: number | null;
  downloaded: boolean;
  date: string;
  text: string | null;
  isDeleted: boolean;
  deletedAt: string | null;
}

export interface GalleryQuery {
  /** Only these types; absent means every type with a file. */
  types?: string[];
  limit: number;
  /** Message ids below this one (the cursor key's message). */
  beforeMessageId?: number;
  /** Message ids above this one. */
  afterMessageId?: number;
}

export interface GalleryPage {
  /** Newest first. */
  items: StoredMediaItem[];
  hasMore: boolean;
}

/** A window of send dates: `from` inclusive, `to` exclusive; either may be absent. */
export interface ExportWindow {
  from?: Date;
  to?: Date;
}

export type ExportedMessage = Schemas['ExportedMessage'];
export type ExportedMessageVersion = Schemas['ExportedMessageVersion'];
