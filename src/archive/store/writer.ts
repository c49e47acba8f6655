/**
 * The archive's writes: what the backup, the listener and the importer store (later issues), and what
 * the fixtures and the benchmark load. Timestamps are Date objects; the store keeps UTC.
 */
import type { JsonText } from '../model/int64';
import type { Poll } from '../model/polls';
import type { ChatType, TranscriptStatus, VersionSource } from './types';

export interface NewAccount {
  id?: number;
  label?: string | null;
  platformUserId?: number | null;
}

export interface NewChat {
  accountId: number;
  id: number;
  type: ChatType;
  title?: string | null;
  username?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  description?: string | null;
  participantsCount?: number | null;
  isForum?: boolean;
  isArchived?: boolean;
  avatarPhotoId?: string | null;
  /** Only for fixtures and imports that must keep a known ref; otherwise minted on first insert. */
  ref?: string;
}

export interface NewUser {
  id: number;
  username?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  isBot?: boolean;
}

export interface NewMessage {
  accountId: number;
  chatId: number;
  id: number;
  senderId?: number | null;
  senderName?: string | null;
  date: Date;
  text?: string | null;
  replyToMsgId?: number | null;
  /** In a forum chat, the topic the message belongs to (General is 1). */
  replyToTopId?: number | null;
  replyToText?: string | null;
  forwardFromId?: number | null;
  editDate?: Date | null;
  /** An object, or the same already written as JSON text. */
  rawData?: Record<string, unknown> | JsonText | null;
  /** A poll message's poll (its question and options are indexed for search with the text). */
  poll?: Poll | null;
  isOutgoing?: boolean;
  isPinned?: boolean;
}

export interface MessageRef {
  accountId: number;
  chatId: number;
  messageId: number;
}

export interface MessageEdit extends MessageRef {
  text: string | null;
  editDate: Date;
  source: VersionSource;
  capturedAt?: Date;
}

export interface NewMedia {
  accountId: number;
  chatId: number;
  messageId: number;
  type: string;
  filePath?: string | null;
  fileName?: string | null;
  fileSize?: number | null;
  mimeType?: string | null;
  width?: number | null;
  height?: number | null;
  duration?: number | null;
  contentHash?: string | null;
  downloaded?: boolean;
  downloadAttempts?: number;
  skipReason?: string | null;
  downloadDate?: Date | null;
}

export interface NewTranscript {
  accountId: number;
  /** The storage media id, `{chat_id}_{message_id}_{type}`. */
  mediaId: string;
  status: TranscriptStatus;
  text?: string | null;
  language?: string | null;
  source?: string | null;
  engineName?: string | null;
  engineVersion?: string | null;
  preset?: string | null;
  models?: Record<string, string> | null;
  confidence?: number | null;
  durationS?: number | null;
  turns?: { speaker: string; start: number; end: number; text: string }[] | null;
  error?: string | null;
  requestedAt: Date;
  completedAt?: Date | null;
}

export interface NewTopic {
  accountId: number;
  chatId: number;
  id: number;
  title: string;
  iconColor?: number | null;
  iconEmoji?: string | null;
  isClosed?: boolean;
  isPinned?: boolean;
  isHidden?: boolean;
  date?: Date | null;
}

export interface NewFolder {
  accountId: number;
  id: number;
  title: string;
  emoticon?: string | null;
  sortOrder: number;
  chatIds: number[];
}

export interface NewAvatar {
  accountId: number;
  chatId: number;
  /** Null records the avatar's removal. */
  photoId: string | null;
  seenAt: Date;
  /** Where the file is stored, relative to the media directory; null when it is not. */
  filePath?: string | null;
}

export interface ArchiveWriter {
  /** Inserts or updates; returns the account id. */
  upsertAccount(account: NewAccount): Promise<number>;
  /** Inserts or updates the chat; the ref is minted once and never changes. Returns it. */
  upsertChat(chat: NewChat): Promise<string>;
  upsertUser(user: NewUser): Promise<void>;
  /** Inserts or updates many messages in one transaction (a backup batch). */
  upsertMessages(messages: NewMessage[]): Promise<void>;
  /** Keeps the current text as a version, then stores the new one. */
  editMessage(edit: MessageEdit): Promise<void>;
  /** Soft deletion: the message stays with is_deleted and deleted_at. */
  markMessageDeleted(ref: MessageRef, deletedAt: Date): Promise<void>;
  /** Hard deletion: the message and what hangs on it are gone (never in the change feed). */
  deleteMessage(ref: MessageRef): Promise<void>;
  setMessagePinned(ref: MessageRef, pinned: boolean): Promise<void>;
  /** Returns the storage media id. */
  upsertMedia(media: NewMedia): Promise<string>;
  /** Appends a transcript row; returns its id. */
  addTranscript(transcript: NewTranscript): Promise<number>;
  /** Replaces the live reactions of a message (per emoji counts); vanished emoji get a removal time. */
  setReactions(ref: MessageRef, reactions: { emoji: string; count: number }[], now?: Date): Promise<void>;
  upsertTopic(topic: NewTopic): Promise<void>;
  /** Inserts or replaces a folder and its members. */
  upsertFolder(folder: NewFolder): Promise<void>;
  addAvatar(avatar: NewAvatar): Promise<void>;
  setSyncStatus(accountId: number, chatId: number, lastMessageId: number, at: Date): Promise<void>;
}
