/**
 * Row shapes the archive store produces, in one place: the archive's rows; media, avatars and exports;
 * live updates. Where a route returns a documented component, the store's type IS the generated component
 * type, so the two cannot drift.
 */
import type { components, operations } from '../../../generated/archive/types';

type Schemas = components['schemas'];
type Json<K extends keyof operations, S extends number = 200> = operations[K]['responses'] extends {
  [P in S]: { content: { 'application/json': infer B } };
}
  ? B
  : never;

export type Account = Schemas['Account'];
export type Chat = Schemas['Chat'];
export type ChatType = Chat['type'];
export type Message = Schemas['Message'];
export type MessageMedia = Schemas['MessageMedia'];
export type Reaction = Schemas['Reaction'];
export type Transcript = Schemas['Transcript'];
export type TranscriptStatus = Transcript['status'];
export type SearchResult = Schemas['SearchResult'];
export type Change = Schemas['Change'];
export type ChangeChat = Schemas['ChangeChat'];
export type AdminChat = Schemas['AdminChat'];
export type ViewerAccount = Schemas['ViewerAccount'];
export type ShareToken = Schemas['ShareToken'];
export type CreatedShareToken = Schemas['CreatedShareToken'];
export type AuditLogEntry = Schemas['AuditLogEntry'];
export type SettingValue = Schemas['SettingValue'];
export type ArchiveStatus = Schemas['ArchiveStatus'];

export type Folder = Json<'listFolders'>['folders'][number];
export type Topic = Json<'listTopics'>['topics'][number];
export type MessageVersion = Json<'listMessageVersions'>[number];
export type VersionSource = NonNullable<MessageVersion['source']>;
export type ChatStats = Json<'getChatStats'>;
export type ChatAvatar = Json<'listChatAvatars'>[number];

/**
 * Which chats a caller may see: the operator's `DISPLAY_CHAT_IDS` combined with the login's grants.
 * `null` means no restriction from that source; an empty list means nothing passes it.
 */
export interface Visibility {
  accounts: number[] | null;
  chatRefs: string[] | null;
  displayChatIds: number[] | null;
}

/** Identifies one archived chat (one account's copy of it) once `findChat` let the caller see it. */
export interface ChatKey {
  accountId: number;
  chatId: number;
  ref: string;
}

export interface FoundChat {
  key: ChatKey;
  chat: StoredChat;
}

/** What is attached to messages (the domain decides per caller; no-download logins get no transcripts). */
export interface MessageView {
  withTranscripts: boolean;
}

export interface ChatListQuery {
  limit: number;
  offset: number;
  /** Substring of title, first/last name or username, case-insensitive. */
  search?: string;
  archived?: boolean;
  folderId?: number;
}

export interface ChatPage {
  chats: StoredChat[];
  /** Every visible chat matching the filters. */
  total: number;
}

export interface MessageListQuery extends MessageView {
  limit: number;
  /** Ignored when a cursor is given. */
  offset?: number;
  /** Substring of the text, case-insensitive. */
  search?: string;
  topicId?: number;
  /** With `beforeId`: messages strictly older than (beforeDate, beforeId). */
  beforeDate?: Date;
  /** Alone: ids below it. */
  beforeId?: number;
  /** Ids above it: the `limit` closest to it, still returned newest first. */
  afterId?: number;
}

export interface MessageByDateQuery {
  /** `YYYY-MM-DD`. */
  date: string;
  /** A valid IANA zone name (check with `isValidTimeZone`). */
  timezone: string;
  topicId?: number;
}

export interface MessageDatesQuery {
  /** `YYYY-MM`. */
  month: string;
  timezone: string;
  topicId?: number;
}

export interface SearchQuery {
  query: string;
  limit: number;
  offset: number;
  /** Also match transcripts of voice notes and videos (false for no-download logins). */
  includeTranscripts: boolean;
}

export interface SearchPage {
  results: StoredSearchResult[];
  hasMore: boolean;
  /** False when the full-text index is missing or the query has no word characters (substring fallback). */
  indexed: boolean;
}

export type TagScope = 'chat' | 'mine' | 'all';

export interface TagQuery {
  /** `#hashtag` or `$CASHTAG`, with its sign (validate with `parseTag` from domain/tags). */
  tag: string;
  scope: TagScope;
  /** Required with scope `chat`. */
  chat?: ChatKey;
  limit: number;
  offset: number;
}

export interface TagPage {
  results: StoredSearchResult[];
  hasMore: boolean;
  truncated: boolean;
}

export interface ChangeQuery {
  /** Inclusive. */
  since?: Date;
  /** Exclusive cursor. */
  before?: Date;
  limit: number;
  /** False for no-download logins: no transcript entries. */
  includeTranscripts: boolean;
}

export interface ChangePage {
  changes: Change[];
  /** `date` of the oldest change of the page (pass as `before`), null when the page is empty. */
  nextBefore: string | null;
}

/** The cached daily figures of `GET /api/stats`, over the chats the caller can see. */
export interface ArchiveFigures {
  chats: number;
  messages: number;
  media_files: number;
  total_size_bytes: number;
  total_size_mb: number;
  stats_calculated_at: string | null;
  last_backup_time: string | null;
}

export interface StatusQuery {
  /** `MEDIA_MAX_DOWNLOAD_ATTEMPTS`: media failed this often count as exhausted. */
  maxDownloadAttempts: number;
  now?: Date;
}

/** The backup's and listeners' state without the media and size figures (cheap, for `/api/stats`). */
export interface RuntimeFlags {
  backupInProgress: boolean;
  /** One per account; active while the heartbeat is at most three minutes old. */
  listeners: ArchiveStatus['listeners'];
}

export type SessionRole = 'master' | 'viewer' | 'token';

export interface Session {
  /** A hash of the cookie key: safe to keep in memory and compare, useless as a cookie. */
  id: string;
  username: string;
  role: SessionRole;
  allowedAccounts: number[] | null;
  allowedChatRefs: string[] | null;
  noDownload: boolean;
  viewerAccountId: number | null;
  sourceTokenId: number | null;
  createdAt: Date;
  lastAccessedAt: Date;
  expiresAt: Date;
}

export interface NewSession {
  username: string;
  role: SessionRole;
  allowedAccounts: number[] | null;
  allowedChatRefs: string[] | null;
  noDownload: boolean;
  viewerAccountId?: number | null;
  sourceTokenId?: number | null;
  /** `AUTH_SESSION_DAYS` in milliseconds. */
  lifetimeMs: number;
  now?: Date;
}

export interface CreatedSession {
  /** The cookie value (43 URL-safe characters); only its hash is stored. */
  key: string;
  session: Session;
  /** Sessions of the same user ended to keep at most 10. */
  evicted: EndedSession[];
}

export interface EndedSession {
  id: string;
  username: string;
  role: SessionRole;
}

export interface ViewerAccountWithSecret extends ViewerAccount {
  password_hash: string;
  salt: string;
}

export interface NewViewerAccount {
  username: string;
  passwordHash: string;
  salt: string;
  allowedAccounts: number[] | null;
  allowedChatRefs: string[] | null;
  isActive: boolean;
  noDownload: boolean;
  createdBy: string | null;
}

export interface ViewerAccountPatch {
  username?: string;
  passwordHash?: string;
  salt?: string;
  allowedAccounts?: number[] | null;
  allowedChatRefs?: string[] | null;
  isActive?: boolean;
  noDownload?: boolean;
}

export interface ViewerAccountChange {
  account: ViewerAccount;
  /** Every session of the account, ended in the same transaction (with the user's push subscriptions). */
  ended: EndedSession[];
  /** Columns whose value changed; empty when the patch changed nothing (then no session ended). */
  changed: string[];
}

export interface NewShareToken {
  label: string | null;
  allowedChatRefs: string[];
  allowedAccounts?: number[] | null;
  noDownload: boolean;
  expiresAt: Date | null;
  createdBy: string | null;
  now?: Date;
}

export interface ShareTokenPatch {
  label?: string | null;
  allowedChatRefs?: string[];
  isRevoked?: boolean;
  noDownload?: boolean;
}

export interface ShareTokenChange {
  token: ShareToken;
  /** Sessions opened with the token that were ended (scope, revocation or download change; deletion). */
  ended: EndedSession[];
  /** Columns whose value changed; empty when the patch changed nothing. */
  changed: string[];
}

export interface NewAuditEntry {
  username: string;
  role: string | null;
  action: string;
  endpoint: string | null;
  chatId?: number | null;
  ipAddress?: string | null;
  userAgent?: string | null;
  now?: Date;
}

export interface AuditQuery {
  limit: number;
  offset: number;
  username?: string;
  action?: string;
}

// Media, avatars and exports. The store returns what is stored (file paths, photo ids, download flags); the
// domain (domain/present.ts) turns them into the API's URLs and applies the no-download rule, so no URL is
// ever built here.

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

// Live updates: push subscriptions, media to transcribe, transcript outcomes.

export interface NewPushSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  username: string | null;
  /** Stored id of the session that subscribed (null for proxy and anonymous logins). */
  sessionId: string | null;
  /** One chat only, or null for every chat the login can see. */
  accountId: number | null;
  chatId: number | null;
  chatRef: string | null;
  /** The login's grants when it subscribed. */
  allowedAccounts: number[] | null;
  allowedChatRefs: string[] | null;
  noDownload: boolean;
  userAgent: string | null;
}

export interface PushSubscriptionRow {
  endpoint: string;
  p256dh: string;
  auth: string;
  username: string | null;
  chatRef: string | null;
  noDownload: boolean;
  allowedAccounts: number[] | null;
  allowedChatRefs: string[] | null;
}

export interface TranscriptMedia {
  /** The media table's id, `{chat_id}_{message_id}_{type}`. */
  storageId: string;
  accountId: number;
  chatId: number;
  messageId: number;
  type: string;
  mimeType: string | null;
  filePath: string | null;
  downloaded: boolean;
  contentHash: string | null;
}

export interface QueuedTranscript {
  transcriptId: number;
  media: TranscriptMedia;
}

export interface TranscriptTarget {
  transcriptId: number;
  status: TranscriptStatus;
  accountId: number;
  chatId: number;
  messageId: number;
}

export interface TranscriptOutcome {
  jobId: string | null;
  contentHash: string | null;
  status: 'done' | 'failed';
  error: string | null;
  text: string | null;
  language: string | null;
  engineName: string | null;
  engineVersion: string | null;
  confidence: number | null;
  durationS: number | null;
  source: string | null;
  completedAt: Date;
}
