/**
 * The archive store: everything the viewer reads and the viewer-access data it writes, over SQLite or
 * PostgreSQL. Visibility is always passed in and applied in SQL, so a restricted login's counts and
 * pages cover its own chats only. The store never migrates by itself (see migrate.ts).
 *
 * Each method here is an exported `async function name(db, ...args)` of a module in queries/, named in
 * archive-store.ts's operations and bound to the driver there: to add a method, write that function,
 * declare the method below and name it there (tsc fails until all three agree).
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
  ChatKey,
  ChatListQuery,
  ChatPage,
  ChatStats,
  CreatedSession,
  CreatedShareToken,
  EndedSession,
  ExportedMessage,
  ExportedMessageVersion,
  ExportWindow,
  Folder,
  FoundChat,
  GalleryPage,
  GalleryQuery,
  MessageByDateQuery,
  MessageDatesQuery,
  MessageListQuery,
  MessageVersion,
  MessageView,
  NewAuditEntry,
  NewPushSubscription,
  NewSession,
  NewShareToken,
  NewViewerAccount,
  PushSubscriptionRow,
  QueuedTranscript,
  RuntimeFlags,
  SearchPage,
  SearchQuery,
  Session,
  SettingValue,
  ShareToken,
  ShareTokenChange,
  ShareTokenPatch,
  StatusQuery,
  StoredChatAvatar,
  StoredMediaItem,
  StoredMessage,
  TagPage,
  TagQuery,
  Topic,
  Transcript,
  TranscriptMedia,
  TranscriptOutcome,
  TranscriptTarget,
  ViewerAccount,
  ViewerAccountChange,
  ViewerAccountPatch,
  ViewerAccountWithSecret,
  Visibility,
} from './types';
import type { ArchiveWriter } from './writer';

export { isValidTimeZone } from '../model/timezone';
export { DatabaseUnavailableError, StoreConflictError } from './errors';
export { accountScopedKey, BACKUP_KEYS } from './metadata-keys';
export { shareTokenUsername } from './queries/grants';
export { MESSAGES_PER_STATEMENT } from './queries/ingest';
export { MAX_SESSIONS_PER_USER, sessionIdOf } from './queries/sessions';
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
  /** The newest migration applied (0: no schema), for the health check. */
  schemaRevision(): Promise<number>;
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
  listMessages(chat: ChatKey, query: MessageListQuery): Promise<StoredMessage[]>;
  getMessage(chat: ChatKey, messageId: number, view: MessageView): Promise<StoredMessage | null>;
  listMessageVersions(chat: ChatKey, messageId: number, limit: number): Promise<MessageVersion[]>;
  listPinnedMessages(chat: ChatKey, view: MessageView): Promise<StoredMessage[]>;
  /** The first message on or after local midnight of the day in the zone, or null. */
  findMessageByDate(
    chat: ChatKey,
    query: MessageByDateQuery,
    view: MessageView,
  ): Promise<StoredMessage | null>;
  /** Local days (`YYYY-MM-DD`, ascending) of the month with at least one message. */
  listMessageDates(chat: ChatKey, query: MessageDatesQuery): Promise<string[]>;
  listTopics(chat: ChatKey): Promise<Topic[]>;
  /** Computed on every call; the caller caches it for 60 seconds. */
  getChatStats(chat: ChatKey): Promise<ChatStats>;
  /** Every sighting of the chat's photo, newest first. */
  listChatAvatars(chat: ChatKey): Promise<StoredChatAvatar[]>;

  // Media and export (files on disk: domain/media-layout.ts)
  /** One media row of the chat by message id and type, or null. */
  getMediaItem(chat: ChatKey, messageId: number, type: string): Promise<StoredMediaItem | null>;
  /** The chat's media with a file kind, newest first, one page (keyset on the message id). */
  listGallery(chat: ChatKey, query: GalleryQuery): Promise<GalleryPage>;
  /** Media with a file kind per type; types with none are left out. */
  countMediaByType(chat: ChatKey): Promise<Record<string, number>>;
  /** The newest sighting of the chat's photo, or the sighting of `photoId`; null when there is none. */
  findChatAvatar(chat: ChatKey, photoId?: string): Promise<StoredChatAvatar | null>;
  /** Which of these media paths (relative to the media folder) a row still names. */
  filePathsInUse(paths: readonly string[]): Promise<Set<string>>;
  /** The sender of a message: undefined when the message does not exist, null when it has no sender. */
  findMessageSender(chat: ChatKey, messageId: number): Promise<number | null | undefined>;
  /** The window's messages oldest first, read in batches of `batchSize` (bounded memory). */
  exportMessages(chat: ChatKey, window: ExportWindow, batchSize?: number): AsyncIterable<ExportedMessage[]>;
  /** Earlier versions of messages whose send date is in the window, in batches. */
  exportMessageVersions(
    chat: ChatKey,
    window: ExportWindow,
    batchSize?: number,
  ): AsyncIterable<ExportedMessageVersion[]>;

  // Across chats
  searchMessages(vis: Visibility, query: SearchQuery): Promise<SearchPage>;
  listTaggedMessages(vis: Visibility, query: TagQuery): Promise<TagPage>;
  /** After a bulk write: the full-text index merged for faster searches (seconds per million messages). */
  compactSearchIndex(): Promise<void>;
  /** The end of every bulk write (import, merge, generated archive): figures counted, indexes compacted. */
  finishBulkWrite(now?: Date): Promise<void>;
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

  // Live updates, Web Push, transcripts
  /** Keeps a live event payload too large for a notification; returns the id to send instead. */
  saveLiveEvent(payload: string, now?: Date): Promise<number>;
  readLiveEvent(id: number): Promise<string | null>;
  /** False when this webhook delivery id was received before (a replay). */
  recordWebhookDelivery(id: string, now?: Date): Promise<boolean>;
  /** The archived copies of a platform chat id, optionally of one account. */
  chatKeysOf(chatId: number, accountId: number | null): Promise<ChatKey[]>;
  savePushSubscription(subscription: NewPushSubscription, now?: Date): Promise<void>;
  /** Removes the user's subscription with this endpoint; false when it has none. */
  deletePushSubscription(endpoint: string, username: string | null): Promise<boolean>;
  dropPushSubscription(endpoint: string): Promise<void>;
  touchPushSubscription(endpoint: string, now?: Date): Promise<void>;
  pushSubscriptionsFor(chat: ChatKey): Promise<PushSubscriptionRow[]>;
  findMediaByKey(chat: ChatKey, key: string): Promise<TranscriptMedia | null>;
  findMediaByStorageId(storageId: string): Promise<(TranscriptMedia & { ref: string })[]>;
  listTranscriptsOf(media: TranscriptMedia): Promise<Transcript[]>;
  queueTranscript(
    media: TranscriptMedia,
    requestedBy: string | null,
    now?: Date,
  ): Promise<{ transcript: Transcript; created: boolean }>;
  transcriptAsks(username: string, since: Date): Promise<{ recent: Date[]; open: number }>;
  listQueuedTranscripts(limit: number): Promise<QueuedTranscript[]>;
  transcriptTarget(transcriptId: number): Promise<TranscriptTarget | null>;
  markTranscriptSubmitted(transcriptId: number, jobId: string, source: string | null): Promise<void>;
  markTranscriptFailed(transcriptId: number, error: string, now?: Date): Promise<void>;
  /** Applies a job's outcome to the open request waiting for it; null when none waits. */
  completeTranscript(outcome: TranscriptOutcome): Promise<number | null>;
}

/** What `openArchiveStore` returns: the viewer's store plus the writes the backup (and fixtures) use. */
export type ArchiveDatabase = ArchiveStore & ArchiveWriter & ArchiveTools;
