/**
 * The one implementation of ArchiveStore and ArchiveWriter, written once over the Driver: SQLite and
 * PostgreSQL differ only in their driver and in the few dialect branches inside queries/.
 */
import type { Logger } from '../../common/logger';
import type { Driver } from './driver';
import * as changes from './queries/changes';
import * as chats from './queries/chats';
import * as exports from './queries/exports';
import * as figures from './queries/figures';
import * as grants from './queries/grants';
import * as imports from './queries/imports';
import * as ingest from './queries/ingest';
import * as maintenance from './queries/maintenance';
import * as merge from './queries/merge';
import * as messages from './queries/messages';
import * as search from './queries/search';
import * as sessions from './queries/sessions';
import * as settings from './queries/settings';
import * as tableCopy from './queries/table-copy';
import { sql } from './sql';
import type { ArchiveDatabase } from './store';
import type * as C from './tools';
import type * as T from './types';
import type * as W from './writer';

const INDEX_RECHECK_MS = 60_000;

export class ArchiveSqlStore implements ArchiveDatabase {
  readonly backend: ArchiveDatabase['backend'];
  private searchIndex: { present: boolean; checkedAt: number } | null = null;

  constructor(
    readonly driver: Driver,
    private readonly logger?: Logger,
  ) {
    this.backend = driver.dialect;
  }

  /** Whether the full-text index exists; a missing one is looked for again a minute later. */
  private async hasSearchIndex(): Promise<boolean> {
    const now = Date.now();
    if (
      this.searchIndex &&
      (this.searchIndex.present || now - this.searchIndex.checkedAt < INDEX_RECHECK_MS)
    ) {
      return this.searchIndex.present;
    }
    const present =
      this.driver.dialect === 'sqlite'
        ? (await this.driver.hasTable('messages_fts')) &&
          (await this.driver.hasTable('media_transcripts_fts'))
        : (await this.driver.hasColumn('messages', 'text_search')) &&
          (await this.driver.hasColumn('messages', 'tags')) &&
          (await this.driver.hasColumn('media_transcripts', 'text_search'));
    if (!present) this.logger?.warn('full-text index missing: search falls back to substring matching');
    this.searchIndex = { present, checkedAt: now };
    return present;
  }

  async probe(): Promise<boolean> {
    try {
      await this.driver.get(sql`SELECT 1 AS ok`);
      return true;
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    return this.driver.close();
  }

  listAccounts = (vis: T.Visibility) => chats.listAccounts(this.driver, vis);
  listChats = (vis: T.Visibility, q: T.ChatListQuery) => chats.listChats(this.driver, vis, q);
  findChat = (vis: T.Visibility, ref: string) => chats.findChat(this.driver, vis, ref);
  listFolders = (vis: T.Visibility) => chats.listFolders(this.driver, vis);
  countArchivedChats = (vis: T.Visibility) => chats.countArchivedChats(this.driver, vis);
  listAdminChats = () => chats.listAdminChats(this.driver);
  existingChatRefs = (refs: string[]) => chats.existingChatRefs(this.driver, refs);

  listMessages = (chat: T.ChatKey, q: T.MessageListQuery) => messages.listMessages(this.driver, chat, q);
  getMessage = (chat: T.ChatKey, id: number, view: T.MessageView) =>
    messages.getMessage(this.driver, chat, id, view);
  listMessageVersions = (chat: T.ChatKey, id: number, limit: number) =>
    messages.listMessageVersions(this.driver, chat, id, limit);
  listPinnedMessages = (chat: T.ChatKey, view: T.MessageView) =>
    messages.listPinnedMessages(this.driver, chat, view);
  findMessageByDate = (chat: T.ChatKey, q: T.MessageByDateQuery, view: T.MessageView) =>
    messages.findMessageByDate(this.driver, chat, q, view);
  listMessageDates = (chat: T.ChatKey, q: T.MessageDatesQuery) =>
    messages.listMessageDates(this.driver, chat, q);
  listTopics = (chat: T.ChatKey) => chats.listTopics(this.driver, chat);
  getChatStats = (chat: T.ChatKey) => chats.getChatStats(this.driver, chat);
  listChatAvatars = (chat: T.ChatKey) => chats.listChatAvatars(this.driver, chat);

  searchMessages = async (vis: T.Visibility, q: T.SearchQuery) =>
    search.searchMessages(this.driver, vis, q, await this.hasSearchIndex());
  listTaggedMessages = async (vis: T.Visibility, q: T.TagQuery) =>
    search.listTaggedMessages(this.driver, vis, q, await this.hasSearchIndex());
  listChanges = (vis: T.Visibility, q: T.ChangeQuery) => changes.listChanges(this.driver, vis, q);

  getArchiveFigures = (vis: T.Visibility) => figures.getArchiveFigures(this.driver, vis);
  refreshArchiveFigures = (now = new Date()) => figures.refreshArchiveFigures(this.driver, now);
  getArchiveStatus = (q: T.StatusQuery) => figures.getArchiveStatus(this.driver, q);
  getRuntimeFlags = (now = new Date()) => figures.getRuntimeFlags(this.driver, now);

  listViewerAccounts = () => grants.listViewerAccounts(this.driver);
  getViewerAccount = (id: number) => grants.getViewerAccount(this.driver, id);
  findViewerAccountByUsername = (username: string) =>
    grants.findViewerAccountByUsername(this.driver, username);
  createViewerAccount = (input: T.NewViewerAccount, now = new Date()) =>
    grants.createViewerAccount(this.driver, input, now);
  updateViewerAccount = (id: number, patch: T.ViewerAccountPatch, now = new Date()) =>
    grants.updateViewerAccount(this.driver, id, patch, now);
  deleteViewerAccount = (id: number) => grants.deleteViewerAccount(this.driver, id);

  createSession = (input: T.NewSession) => sessions.createSession(this.driver, input);
  getSession = (key: string, now = new Date()) => sessions.getSession(this.driver, key, now);
  touchSession = (key: string, now = new Date()) => sessions.touchSession(this.driver, key, now);
  endSession = (key: string) => sessions.endSession(this.driver, key);
  endSessionsOfUser = (username: string) => sessions.endSessionsOfUser(this.driver, username);
  endSessionsOfToken = (tokenId: number) => sessions.endSessionsOfToken(this.driver, tokenId);
  endAllSessions = (options: { keepKey?: string } = {}) =>
    sessions.endAllSessions(this.driver, options.keepKey);
  liveSessionIds = (ids: string[], now = new Date()) => sessions.liveSessionIds(this.driver, ids, now);
  purgeExpiredSessions = (now = new Date()) => sessions.purgeExpiredSessions(this.driver, now);

  listShareTokens = () => grants.listShareTokens(this.driver);
  getShareToken = (id: number) => grants.getShareToken(this.driver, id);
  createShareToken = (input: T.NewShareToken) => grants.createShareToken(this.driver, input);
  updateShareToken = (id: number, patch: T.ShareTokenPatch) =>
    grants.updateShareToken(this.driver, id, patch);
  deleteShareToken = (id: number) => grants.deleteShareToken(this.driver, id);
  redeemShareToken = (plaintext: string, now = new Date()) =>
    grants.redeemShareToken(this.driver, plaintext, now);

  appendAudit = (entry: T.NewAuditEntry) => settings.appendAudit(this.driver, entry);
  listAudit = (q: T.AuditQuery) => settings.listAudit(this.driver, q);
  getSettings = () => settings.getSettings(this.driver);
  getSetting = (key: string) => settings.getSetting(this.driver, key);
  setSetting = (key: string, value: string, now = new Date()) =>
    settings.setSetting(this.driver, key, value, now);
  getMetadata = (key: string) => settings.getMetadata(this.driver, key);
  setMetadata = (key: string, value: string) => settings.setMetadata(this.driver, key, value);
  deletePushSubscriptionsOfUser = (username: string) =>
    sessions.deletePushSubscriptionsOfUsers(this.driver, [username]);

  upsertAccount = (a: W.NewAccount) => ingest.upsertAccount(this.driver, a);
  upsertChat = (c: W.NewChat) => ingest.upsertChat(this.driver, c);
  upsertUser = (u: W.NewUser) => ingest.upsertUser(this.driver, u);
  upsertMessages = (m: W.NewMessage[]) => ingest.upsertMessages(this.driver, m);
  editMessage = (e: W.MessageEdit) => ingest.editMessage(this.driver, e);
  markMessageDeleted = (r: W.MessageRef, at: Date) => ingest.markMessageDeleted(this.driver, r, at);
  deleteMessage = (r: W.MessageRef) => ingest.deleteMessage(this.driver, r);
  setMessagePinned = (r: W.MessageRef, pinned: boolean) => ingest.setMessagePinned(this.driver, r, pinned);
  upsertMedia = (m: W.NewMedia) => ingest.upsertMedia(this.driver, m);
  addTranscript = (t: W.NewTranscript) => ingest.addTranscript(this.driver, t);
  setReactions = (r: W.MessageRef, reactions: { emoji: string; count: number }[], now = new Date()) =>
    ingest.setReactions(this.driver, r, reactions, now);
  upsertTopic = (t: W.NewTopic) => ingest.upsertTopic(this.driver, t);
  upsertFolder = (f: W.NewFolder) => ingest.upsertFolder(this.driver, f);
  addAvatar = (a: W.NewAvatar) => ingest.addAvatar(this.driver, a);
  setSyncStatus = (accountId: number, chatId: number, lastId: number, at: Date) =>
    ingest.setSyncStatus(this.driver, accountId, chatId, lastId, at);

  importTransaction = <R>(fn: (w: C.ChatImportWriter) => Promise<R>) =>
    imports.importTransaction(this.driver, fn);
  importAccountId = () => imports.importAccountId(this.driver);
  countChatMessages = (t: C.ImportTarget) => imports.countChatMessages(this.driver, t);
  existingMessageIds = (t: C.ImportTarget, ids: number[]) => imports.existingMessageIds(this.driver, t, ids);

  listExportChats = () => exports.listExportChats(this.driver);
  countExport = (f: C.ExportFilter) => exports.countExport(this.driver, f);
  exportMessagePage = (f: C.ExportFilter, after: number | null, limit: number) =>
    exports.exportMessagePage(this.driver, f, after, limit);
  exportVersionPage = (f: C.ExportFilter, after: number | null, limit: number) =>
    exports.exportVersionPage(this.driver, f, after, limit);
  listCliChats = () => exports.listCliChats(this.driver);
  schemaRevision = () => exports.schemaRevision(this.driver);

  listMergeAccounts = () => merge.listSourceAccounts(this.driver);
  countOrphans = (accountIds: number[]) => merge.countOrphans(this.driver, accountIds);
  mergeArchive = (source: C.ArchiveTools, plan: C.MergePlan, hooks: C.MergeHooks) => {
    if (!(source instanceof ArchiveSqlStore)) throw new TypeError('not a store opened by openArchiveStore');
    return merge.mergeArchive(source.driver, this.driver, plan, hooks);
  };

  listCopyTables = () => tableCopy.listTables(this.driver);
  countTableRows = (table: string) => tableCopy.countRows(this.driver, table);
  copyTablesTo = (
    target: C.ArchiveTools,
    tables: C.TableInfo[],
    batchSize: number,
    onTable: (table: string, rows: number) => void,
  ) => {
    if (!(target instanceof ArchiveSqlStore)) throw new TypeError('not a store opened by openArchiveStore');
    return tableCopy.copyTables(this.driver, target.driver, tables, batchSize, onTable);
  };
  resetSequences = () => tableCopy.resetSequences(this.driver);
  writableTableColumns = (table: string) => merge.writableColumns(this.driver, table);
  tableColumnTypes = (table: string) => tableCopy.columnTypes(this.driver, table);
  tableChecksum = (t: C.TableInfo, columns: string[], types: Record<string, string>, batchSize: number) =>
    tableCopy.tableChecksum(this.driver, t, columns, types, batchSize);

  listAlbumCandidates = () => maintenance.listAlbumCandidates(this.driver);
  listMessagesWithGroupedId = () => maintenance.listMessagesWithGroupedId(this.driver);
  listMediaFiles = () => maintenance.listMediaFiles(this.driver);
  listAvatarFiles = () => maintenance.listAvatarFiles(this.driver);
  maintenanceTransaction = <R>(fn: (w: C.MaintenanceWriter) => Promise<R>) =>
    maintenance.maintenanceTransaction(this.driver, fn);
}
