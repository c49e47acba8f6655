/**
 * The messaging platform as the backup engine sees it: the few operations it needs, in the archive's own
 * terms. The GramJS adapter implements it for the real platform; the fake platform implements it for
 * tests and the demo archive.
 */
import type { Poll } from '../model/polls';
import type { ChatType } from '../store/types';

export type MediaKind =
  | 'photo'
  | 'video'
  | 'video_note'
  | 'voice'
  | 'audio'
  | 'document'
  | 'sticker'
  | 'animation';

export interface PlatformMedia {
  kind: MediaKind;
  /** The platform's own id of the file: stable across runs, used to resume a download. */
  fileId: string;
  fileName?: string | null;
  mimeType?: string | null;
  size?: number | null;
  width?: number | null;
  height?: number | null;
  duration?: number | null;
}

export interface PlatformMessage {
  chatId: number;
  id: number;
  date: Date;
  senderId?: number | null;
  senderName?: string | null;
  text?: string | null;
  replyToMsgId?: number | null;
  /** In a forum chat, the topic the message belongs to. */
  replyToTopId?: number | null;
  forwardFromId?: number | null;
  editDate?: Date | null;
  isOutgoing?: boolean;
  isPinned?: boolean;
  groupedId?: string | null;
  media?: PlatformMedia | null;
  reactions?: { emoji: string; count: number }[];
  /** A service message (join, pin, title change …): its action, named as the desktop export names it. */
  action?: string | null;
  /** A poll message's poll. */
  poll?: Poll | null;
  /** What the platform said, kept as the message's raw data. */
  raw?: Record<string, unknown>;
}

export interface PlatformChat {
  id: number;
  type: ChatType;
  title?: string | null;
  username?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  participantsCount?: number | null;
  isForum?: boolean;
  isArchived?: boolean;
  /** The current avatar's photo id; null when the chat has none. */
  avatarPhotoId?: string | null;
  /** The newest message id, when the dialog list knows it. */
  topMessageId?: number | null;
}

export interface PlatformTopic {
  id: number;
  title: string;
  iconColor?: number | null;
  iconEmoji?: string | null;
  isClosed?: boolean;
  isPinned?: boolean;
  isHidden?: boolean;
  date?: Date | null;
}

export interface PlatformFolder {
  id: number;
  title: string;
  emoticon?: string | null;
  chatIds: number[];
}

export interface PlatformUser {
  id: number;
  username?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  isBot?: boolean;
}

export type PlatformUpdate =
  | { kind: 'new_message'; message: PlatformMessage }
  | { kind: 'edit'; message: PlatformMessage }
  | { kind: 'delete'; chatId: number | null; messageIds: number[] }
  | { kind: 'pin'; chatId: number; messageIds: number[]; pinned: boolean }
  | { kind: 'reaction'; chatId: number; messageId: number; reactions: { emoji: string; count: number }[] };

/** The platform asked the client to wait before the next call (its rate limit). */
export class FloodWaitError extends Error {
  constructor(readonly seconds: number) {
    super(`A wait of ${seconds} seconds is required`);
    this.name = 'FloodWaitError';
  }
}

/**
 * The platform could not be reached (no network, a firewall, its servers down): one line that says what
 * failed and what to do, for every command that connects.
 */
export class PlatformUnreachableError extends Error {
  constructor(reason: string) {
    super(`cannot reach the messaging platform: ${reason}; check the network`);
    this.name = 'PlatformUnreachableError';
  }
}

/** The session file holds no authorised login: run `auth` first. */
export class NotAuthorizedError extends Error {
  constructor() {
    super('Session not authorized');
    this.name = 'NotAuthorizedError';
  }
}

/** Answers the login's questions: the code the platform sent, then the two-step password when one is set. */
export interface LoginPrompts {
  code(): Promise<string>;
  password(hint?: string): Promise<string>;
}

/** One connected, authorised account. */
export interface PlatformSession {
  me(): Promise<PlatformUser>;
  dialogs(): AsyncIterable<PlatformChat>;
  folders(): Promise<PlatformFolder[]>;
  /** A chat's messages with ids above `afterId`, oldest first. */
  history(chatId: number, afterId: number): AsyncIterable<PlatformMessage>;
  /** The messages of these ids, null where the platform no longer has one. */
  messagesByIds(chatId: number, ids: number[]): Promise<(PlatformMessage | null)[]>;
  /** The bytes of a media item from `offset` on (a resumed download starts past what is on disk). */
  download(
    chatId: number,
    messageId: number,
    media: PlatformMedia,
    offset: number,
  ): AsyncIterable<Uint8Array>;
  /** The chat's current avatar picture, or null. */
  avatar(chatId: number): Promise<{ photoId: string; bytes: Uint8Array } | null>;
  topics(chatId: number): Promise<PlatformTopic[]>;
  /** Ids of the chat's messages that the platform reports as round videos. */
  roundVideoIds(chatId: number): Promise<number[]>;
  /** Sends a message as the session's account; returns its id. */
  send(
    chatId: number,
    message: { text: string | null; file?: { name: string; bytes: Uint8Array } | null },
  ): Promise<number>;
  /** Delivers live updates until the returned function is called. */
  subscribe(onUpdate: (update: PlatformUpdate) => void): () => void;
  disconnect(): Promise<void>;
}

export interface AccountLogin {
  /** The account's number in the configuration (MSGR_ACCOUNT_<N>_PHONE); 1 for the single legacy one. */
  index: number;
  phone: string;
}

export interface Platform {
  /** Connects an account whose session is stored; throws NotAuthorizedError when it has none. */
  connect(account: AccountLogin): Promise<PlatformSession>;
  /** Whether the account's stored session is authorised. */
  isAuthorized(account: AccountLogin): Promise<boolean>;
  /** Interactive login; returns the logged-in user (its phone is checked by the caller). */
  login(account: AccountLogin, prompts: LoginPrompts): Promise<PlatformUser>;
  /**
   * Non-interactive login, first half: asks the platform to send the login code. What the second half
   * needs (the connection's keys, the code's hash) is kept with the account's session.
   */
  sendCode(account: AccountLogin): Promise<void>;
  /**
   * Second half: signs in with the code (and the two-step password when the account has one); throws
   * PasswordNeededError when one is needed and none was given.
   */
  verifyCode(account: AccountLogin, code: string, password?: string): Promise<PlatformUser>;
}

/** `verify` without sending a code first. */
export class NoCodeSentError extends Error {
  constructor() {
    super('No login code was requested for this account: run send first');
    this.name = 'NoCodeSentError';
  }
}

/** The account has a two-step password and none was given. */
export class PasswordNeededError extends Error {
  constructor() {
    super('This account has two-step verification: pass the password after the code');
    this.name = 'PasswordNeededError';
  }
}
