/**
 * The archive store: everything the viewer reads and the viewer-access data it writes, over SQLite or
 * PostgreSQL. Visibility is always passed in and applied in SQL, so a restricted login's counts and
 * pages cover its own chats only. The store never migrates by itself (see migrate.ts).
 *
 * Each method here is an exported `async function name(db, ...args)` of a module in queries/, bound to
 * the driver by archive-store.ts: to add a method, write that function and declare the method below.
 */

import type { ArchiveTools } from './tools';
import type {
  Account,
  AdminChat,
  ArchiveFigures,
  ArchiveStatus,
  AuditLogEntry,
  AuditQuery,
  ChangePage,
  ChangeQuery,
  ChatAvatar,
  ChatKey,
  ChatListQuery,
  ChatPage,
  ChatStats,
  CreatedSession,
  CreatedShareToken,
  EndedSession,
  Folder,
  FoundChat,
  Message,
  MessageByDateQuery,
  MessageDatesQuery,
  MessageListQuery,
  MessageVersion,
  MessageView,
  NewAuditEntry,
  NewSession,
  NewShareToken,
  NewViewerAccount,
  RuntimeFlags,
  SearchPage,
  SearchQuery,
  Session,
  SettingValue,
  ShareToken,
  ShareTokenChange,
  ShareTokenPatch,
  StatusQuery,
  TagPage,
  TagQuery,
  Topic,
  ViewerAccount,
  ViewerAccountChange,
  ViewerAccountPatch,
  ViewerAccountWithSecret,
  Visibility,
} from './types';
import type { ArchiveWriter } from './writer';

export { DatabaseUnavailableError, StoreConflictError } from './errors';
export { accountScopedKey, BACKUP_KEYS } from './metadata-keys';
export { shareTokenUsername } from './queries/grants';
export { MAX_SESSIONS_PER_USER, sessionIdOf } from './queries/sessions';
export { isValidTimeZone } from './timezone';
export type * from './tools';
export type * from './types';
export type * from './writer';

export type Backend = 'sqlite' | 'postgresql';

/** No restriction at all (the master login without `DISPLAY_CHAT_IDS`). */
export const ALL_VISIBLE: Visibility = Object.freeze({
  accounts: null,
  chatRefs: null,
  displayChatIds: null,
});

export interface ArchiveStore {
  readonly backend: Backend;
  /** True when a trivial query succeeds; never throws (for `/api/health`). */
  probe(): Promise<boolean>;
  close(): Promise<void>;

  // Accounts, chats, folders
  listAccounts(vis: Visibility): Promise<Account[]>;
  listChats(vis: Visibility, query: ChatListQuery): Promise<ChatPage>;
  /** Null for an unknown, malformed or invisible ref alike (the same 404). */
  findChat(vis: Visibility, ref: string): Promise<FoundChat | null>;
  listFolders(vis: Visibility): Promise<Folder[]>;
  countArchivedChats(vis: Visibility): Promise<number>;
  /** Every chat of every account, whatever the visibility (master's grant picker). */
  listAdminChats(): Promise<AdminChat[]>;
  /** Refs that exist, of those given (to check grants before storing them). */
  existingChatRefs(refs: string[]): Promise<string[]>;

  // One chat's messages
  listMessages(chat: ChatKey, query: MessageListQuery): Promise<Message[]>;
  getMessage(chat: ChatKey, messageId: number, view: MessageView): Promise<Message | null>;
  listMessageVersions(chat: ChatKey, messageId: number, limit: number): Promise<MessageVersion[]>;
  listPinnedMessages(chat: ChatKey, view: MessageView): Promise<Message[]>;
  /** The first message on or after local midnight of the day in the zone, or null. */
  findMessageByDate(chat: ChatKey, query: MessageByDateQuery, view: MessageView): Promise<Message | null>;
  /** Local days (`YYYY-MM-DD`, ascending) of the month with at least one message. */
  listMessageDates(chat: ChatKey, query: MessageDatesQuery): Promise<string[]>;
  listTopics(chat: ChatKey): Promise<Topic[]>;
  /** Computed on every call; the caller caches it for 60 seconds. */
  getChatStats(chat: ChatKey): Promise<ChatStats>;
  listChatAvatars(chat: ChatKey): Promise<ChatAvatar[]>;

  // Across chats
  searchMessages(vis: Visibility, query: SearchQuery): Promise<SearchPage>;
  listTaggedMessages(vis: Visibility, query: TagQuery): Promise<TagPage>;
  listChanges(vis: Visibility, query: ChangeQuery): Promise<ChangePage>;

  // Statistics and status
  /** Cached figures summed over the visible chats (all 0 before the first calculation). */
  getArchiveFigures(vis: Visibility): Promise<ArchiveFigures>;
  /** Recalculates the cached figures of the whole archive (slow on large archives). */
  refreshArchiveFigures(now?: Date): Promise<void>;
  /** Backup, listeners, media and database figures; counts and timestamps only. */
  getArchiveStatus(query: StatusQuery): Promise<ArchiveStatus>;
  /** The backup and listener part of the status alone, without scanning media. */
  getRuntimeFlags(now?: Date): Promise<RuntimeFlags>;

  // Viewer accounts
  listViewerAccounts(): Promise<ViewerAccount[]>;
  getViewerAccount(id: number): Promise<ViewerAccount | null>;
  findViewerAccountByUsername(username: string): Promise<ViewerAccountWithSecret | null>;
  /** Throws StoreConflictError when the username is taken. */
  createViewerAccount(input: NewViewerAccount, now?: Date): Promise<ViewerAccount>;
  /** Ends every session of the account. Null for an unknown id; StoreConflictError on a taken username. */
  updateViewerAccount(id: number, patch: ViewerAccountPatch, now?: Date): Promise<ViewerAccountChange | null>;
  deleteViewerAccount(id: number): Promise<ViewerAccountChange | null>;

  // Sessions (stored hashed; at most 10 per username)
  createSession(input: NewSession): Promise<CreatedSession>;
  /** Null when unknown, ended or expired. */
  getSession(key: string, now?: Date): Promise<Session | null>;
  touchSession(key: string, now?: Date): Promise<void>;
  /** Logout: ends this session and deletes the user's push subscriptions. */
  endSession(key: string): Promise<EndedSession | null>;
  endSessionsOfUser(username: string): Promise<EndedSession[]>;
  endSessionsOfToken(tokenId: number): Promise<EndedSession[]>;
  /** Ends every session except `keepKey`'s; push subscriptions of ended users go too. */
  endAllSessions(options?: { keepKey?: string }): Promise<EndedSession[]>;
  /** Which of these session ids are still live (a second viewer learns of ended sessions this way). */
  liveSessionIds(ids: string[], now?: Date): Promise<string[]>;
  /** Deletes expired sessions; returns them. */
  purgeExpiredSessions(now?: Date): Promise<EndedSession[]>;

  // Share tokens (stored hashed; the plaintext only in the create answer)
  listShareTokens(): Promise<ShareToken[]>;
  getShareToken(id: number): Promise<ShareToken | null>;
  createShareToken(input: NewShareToken): Promise<CreatedShareToken>;
  /** Ends the token's sessions when is_revoked, allowed_chat_refs or no_download changes. */
  updateShareToken(id: number, patch: ShareTokenPatch): Promise<ShareTokenChange | null>;
  deleteShareToken(id: number): Promise<ShareTokenChange | null>;
  /** A valid (known, not revoked, not expired) token: counts the use and returns it; else null. */
  redeemShareToken(plaintext: string, now?: Date): Promise<ShareToken | null>;

  // Audit log, settings, metadata, push subscriptions
  appendAudit(entry: NewAuditEntry): Promise<void>;
  /** Newest first; `username` exact, `action` a prefix of the action. */
  listAudit(query: AuditQuery): Promise<AuditLogEntry[]>;
  getSettings(): Promise<Record<string, string>>;
  getSetting(key: string): Promise<string | null>;
  setSetting(key: string, value: string, now?: Date): Promise<SettingValue>;
  getMetadata(key: string): Promise<string | null>;
  setMetadata(key: string, value: string): Promise<void>;
  deletePushSubscriptionsOfUser(username: string): Promise<number>;
}

/** What `openArchiveStore` returns: the viewer's store plus the writes the backup (and fixtures) use. */
export type ArchiveDatabase = ArchiveStore & ArchiveWriter & ArchiveTools;
