/**
 * Row shapes the archive store produces. Where a route returns a documented component, the store's type IS
 * the generated component type, so the two cannot drift.
 */
import type { components, operations } from '../../../generated/archive/types';
import type { StoredChat, StoredSearchResult } from './media-types';

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
