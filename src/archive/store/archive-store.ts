/**
 * The one implementation of ArchiveStore and ArchiveWriter, written once over the Driver: SQLite and
 * PostgreSQL differ only in their driver and its capabilities (dialects.ts).
 *
 * The store is the query modules bound to a driver: every exported `async function name(db, ...args)`
 * of a module listed in QUERY_MODULES becomes the store method `name(...args)`. To add one, export the
 * function from a module here and declare the method in the ArchiveStore (store.ts) or ArchiveWriter
 * (writer.ts) interface; `satisfies ArchiveDatabase` below checks that every declared method exists with
 * the declared signature.
 */

import { bindOperations, type Operations } from '../../common/store-operations';
import type { Driver } from './driver';
import * as archiveExport from './queries/archive-export';
import * as changes from './queries/changes';
import * as chatExport from './queries/chat-export';
import * as chats from './queries/chats';
import * as figures from './queries/figures';
import * as grants from './queries/grants';
import * as imports from './queries/imports';
import * as ingest from './queries/ingest';
import * as live from './queries/live';
import * as maintenance from './queries/maintenance';
import * as media from './queries/media';
import * as merge from './queries/merge';
import * as messages from './queries/messages';
import * as push from './queries/push';
import * as search from './queries/search';
import * as sessions from './queries/sessions';
import * as settings from './queries/settings';
import * as tableCopy from './queries/table-copy';
import * as transcripts from './queries/transcripts';
import { sql } from './sql';
import type { ArchiveDatabase } from './store';
import type * as C from './tools';

/** The store methods bound by hand: the generic transactions, and those given a second archive. */
type HandBound =
  | 'backend'
  | 'probe'
  | 'close'
  | 'importTransaction'
  | 'maintenanceTransaction'
  | 'listMergeAccounts'
  | 'countOrphans'
  | 'mergeArchive'
  | 'listCopyTables'
  | 'countTableRows'
  | 'copyTablesTo'
  | 'resetSequences'
  | 'writableTableColumns'
  | 'tableColumnTypes'
  | 'tableChecksum';
type Bound = Exclude<keyof ArchiveDatabase, HandBound>;

/** Every other store method, as the query function (of the driver) that does it. */
const OPERATIONS: Operations<ArchiveDatabase, Bound, Driver> = {
  // changes.ts
  listChanges: changes.listChanges,
  // chats.ts
  countArchivedChats: chats.countArchivedChats,
  existingChatRefs: chats.existingChatRefs,
  findChat: chats.findChat,
  getChatStats: chats.getChatStats,
  listAccounts: chats.listAccounts,
  listAdminChats: chats.listAdminChats,
  listChatAvatars: chats.listChatAvatars,
  listChats: chats.listChats,
  listFolders: chats.listFolders,
  listTopics: chats.listTopics,
  // chat-export.ts
  exportMessageVersions: chatExport.exportMessageVersions,
  exportMessages: chatExport.exportMessages,
  // archive-export.ts
  countExport: archiveExport.countExport,
  exportMessagePage: archiveExport.exportMessagePage,
  exportVersionPage: archiveExport.exportVersionPage,
  listCliChats: archiveExport.listCliChats,
  listExportChats: archiveExport.listExportChats,
  schemaRevision: archiveExport.schemaRevision,
  // figures.ts
  getArchiveFigures: figures.getArchiveFigures,
  getArchiveStatus: figures.getArchiveStatus,
  getRuntimeFlags: figures.getRuntimeFlags,
  refreshArchiveFigures: figures.refreshArchiveFigures,
  // grants.ts
  createShareToken: grants.createShareToken,
  createViewerAccount: grants.createViewerAccount,
  deleteShareToken: grants.deleteShareToken,
  deleteViewerAccount: grants.deleteViewerAccount,
  findViewerAccountByUsername: grants.findViewerAccountByUsername,
  getShareToken: grants.getShareToken,
  getViewerAccount: grants.getViewerAccount,
  listShareTokens: grants.listShareTokens,
  listViewerAccounts: grants.listViewerAccounts,
  redeemShareToken: grants.redeemShareToken,
  updateShareToken: grants.updateShareToken,
  updateViewerAccount: grants.updateViewerAccount,
  // imports.ts
  countChatMessages: imports.countChatMessages,
  existingMessageIds: imports.existingMessageIds,
  finishBulkWrite: imports.finishBulkWrite,
  importAccountId: imports.importAccountId,
  // ingest.ts
  addAvatar: ingest.addAvatar,
  addTranscript: ingest.addTranscript,
  deleteMessage: ingest.deleteMessage,
  editMessage: ingest.editMessage,
  markMessageDeleted: ingest.markMessageDeleted,
  setMessagePinned: ingest.setMessagePinned,
  setReactions: ingest.setReactions,
  setSyncStatus: ingest.setSyncStatus,
  upsertAccount: ingest.upsertAccount,
  upsertChat: ingest.upsertChat,
  upsertFolder: ingest.upsertFolder,
  upsertMedia: ingest.upsertMedia,
  upsertMessages: ingest.upsertMessages,
  upsertTopic: ingest.upsertTopic,
  upsertUser: ingest.upsertUser,
  // media.ts
  countMediaByType: media.countMediaByType,
  filePathsInUse: media.filePathsInUse,
  findChatAvatar: media.findChatAvatar,
  findMessageSender: media.findMessageSender,
  getMediaItem: media.getMediaItem,
  listGallery: media.listGallery,
  // maintenance.ts
  listAlbumCandidates: maintenance.listAlbumCandidates,
  listAvatarFiles: maintenance.listAvatarFiles,
  listMediaFiles: maintenance.listMediaFiles,
  listMessagesWithGroupedId: maintenance.listMessagesWithGroupedId,
  // messages.ts
  findMessageByDate: messages.findMessageByDate,
  getMessage: messages.getMessage,
  listMessageDates: messages.listMessageDates,
  listMessageVersions: messages.listMessageVersions,
  listMessages: messages.listMessages,
  listPinnedMessages: messages.listPinnedMessages,
  // search.ts
  compactSearchIndex: search.compactSearchIndex,
  listTaggedMessages: search.listTaggedMessages,
  searchMessages: search.searchMessages,
  // sessions.ts
  createSession: sessions.createSession,
  deletePushSubscriptionsOfUser: sessions.deletePushSubscriptionsOfUser,
  endAllSessions: sessions.endAllSessions,
  endSession: sessions.endSession,
  endSessionsOfToken: sessions.endSessionsOfToken,
  endSessionsOfUser: sessions.endSessionsOfUser,
  getSession: sessions.getSession,
  liveSessionIds: sessions.liveSessionIds,
  purgeExpiredSessions: sessions.purgeExpiredSessions,
  touchSession: sessions.touchSession,
  // settings.ts
  appendAudit: settings.appendAudit,
  getMetadata: settings.getMetadata,
  getSetting: settings.getSetting,
  getSettings: settings.getSettings,
  listAudit: settings.listAudit,
  setMetadata: settings.setMetadata,
  setSetting: settings.setSetting,
  // live.ts
  chatKeysOf: live.chatKeysOf,
  readLiveEvent: live.readLiveEvent,
  recordWebhookDelivery: live.recordWebhookDelivery,
  saveLiveEvent: live.saveLiveEvent,
  // push.ts
  deletePushSubscription: push.deletePushSubscription,
  dropPushSubscription: push.dropPushSubscription,
  pushSubscriptionsFor: push.pushSubscriptionsFor,
  savePushSubscription: push.savePushSubscription,
  touchPushSubscription: push.touchPushSubscription,
  // transcripts.ts
  completeTranscript: transcripts.completeTranscript,
  findMediaByKey: transcripts.findMediaByKey,
  findMediaByStorageId: transcripts.findMediaByStorageId,
  listQueuedTranscripts: transcripts.listQueuedTranscripts,
  listTranscriptsOf: transcripts.listTranscriptsOf,
  markTranscriptFailed: transcripts.markTranscriptFailed,
  markTranscriptSubmitted: transcripts.markTranscriptSubmitted,
  queueTranscript: transcripts.queueTranscript,
  transcriptAsks: transcripts.transcriptAsks,
  transcriptTarget: transcripts.transcriptTarget,
};

/** What `openArchiveStore` returns, with the driver beside it (migrations, tests, benchmarks). */
export type ArchiveSqlStore = ArchiveDatabase & { readonly driver: Driver };

export function createArchiveStore(driver: Driver): ArchiveSqlStore {
  return {
    driver,
    backend: driver.dialect,
    async probe() {
      try {
        await driver.get(sql`SELECT 1 AS ok`);
        return true;
      } catch {
        return false;
      }
    },
    close: () => driver.close(),
    ...bindOperations<ArchiveDatabase, Bound, Driver>(driver, OPERATIONS),
    // Generic methods, and those that take a second archive (merge.ts, table-copy.ts), bound by hand.
    importTransaction: <R>(fn: (w: C.ChatImportWriter) => Promise<R>) =>
      imports.importTransaction(driver, fn),
    maintenanceTransaction: <R>(fn: (w: C.MaintenanceWriter) => Promise<R>) =>
      maintenance.maintenanceTransaction(driver, fn),
    listMergeAccounts: () => merge.listSourceAccounts(driver),
    countOrphans: (accountIds: number[]) => merge.countOrphans(driver, accountIds),
    mergeArchive: (source: C.ArchiveTools, plan: C.MergePlan, hooks: C.MergeHooks) =>
      merge.mergeArchive(driverOf(source as ArchiveDatabase), driver, plan, hooks),
    listCopyTables: () => tableCopy.listTables(driver),
    countTableRows: (table: string) => tableCopy.countRows(driver, table),
    copyTablesTo: (
      target: C.ArchiveTools,
      tables: C.TableInfo[],
      batchSize: number,
      onTable: (table: string, rows: number) => void,
    ) => tableCopy.copyTables(driver, driverOf(target as ArchiveDatabase), tables, batchSize, onTable),
    resetSequences: () => tableCopy.resetSequences(driver),
    writableTableColumns: (table: string) => merge.writableColumns(driver, table),
    tableColumnTypes: (table: string) => tableCopy.columnTypes(driver, table),
    tableChecksum: (t: C.TableInfo, columns: string[], types: Record<string, string>, batchSize: number) =>
      tableCopy.tableChecksum(driver, t, columns, types, batchSize),
  } satisfies ArchiveSqlStore;
}

/** The driver under a store made by createArchiveStore. */
export function driverOf(store: ArchiveDatabase): Driver {
  const driver = (store as Partial<ArchiveSqlStore>).driver;
  if (!driver) throw new TypeError('not a store opened by openArchiveStore');
  return driver;
}
