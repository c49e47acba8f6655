/**
 * The command line's side of the store: imports (one transaction per chat), streamed exports, the chat
 * table of `list-chats`, merges of another archive and maintenance passes. Types only; the SQL is in
 * queries/imports.ts, exports.ts, merge.ts and maintenance.ts.
 */
import type { MergeHooks, MergePlan, MergeResult, SourceAccount } from './queries/merge';
import type { MessageRef, NewChat, NewMedia, NewMessage, NewUser } from './writer';

export interface ImportTarget {
  accountId: number;
  chatId: number;
}

/** Bound to one open transaction; everything it writes commits or rolls back together. */
export interface ChatImportWriter {
  /** The first account, created when the archive has none. */
  ensureAccount(): Promise<number>;
  upsertChat(chat: NewChat): Promise<string>;
  upsertUser(user: NewUser): Promise<void>;
  countMessages(target: ImportTarget): Promise<number>;
  existingMessageIds(target: ImportTarget, ids: number[]): Promise<Set<number>>;
  insertMessages(messages: NewMessage[]): Promise<void>;
  upsertMedia(media: NewMedia): Promise<string>;
  addReactions(ref: MessageRef, reactions: { emoji: string; count: number }[]): Promise<void>;
  pinMessages(target: ImportTarget, ids: number[]): Promise<void>;
}

export interface ExportFilter {
  chatId: number | null;
  /** Inclusive, midnight UTC. */
  start: Date | null;
  /** Exclusive, midnight UTC. */
  end: Date | null;
}

export interface ExportChat {
  id: number;
  account_id: number;
  type: string;
  title: string | null;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  description: string | null;
  participants_count: number | null;
  is_forum: number;
  is_archived: number;
  created_at: string | null;
  updated_at: string | null;
}

export interface ExportTranscript {
  id: number;
  media_id: string;
  status: string;
  text: string | null;
  language: string | null;
  source: string | null;
  engine_name: string | null;
  engine_version: string | null;
  confidence: number | null;
  duration_s: number | null;
  requested_at: string | null;
  completed_at: string | null;
}

export interface ExportMessage {
  id: number;
  chat_id: number;
  sender_id: number | null;
  sender_name: string | null;
  date: string | null;
  text: string | null;
  reply_to_msg_id: number | null;
  reply_to_top_id: number | null;
  reply_to_text: string | null;
  forward_from_id: number | null;
  edit_date: string | null;
  raw_data: unknown;
  created_at: string | null;
  is_outgoing: number;
  is_pinned: number;
  is_deleted: number;
  deleted_at: string | null;
  account_id: number;
  transcripts?: ExportTranscript[];
}

export interface ExportVersion {
  chat_id: number;
  message_id: number;
  text: string | null;
  date: string | null;
}

export interface ExportCounts {
  total_messages: number;
  total_chats: number;
  total_message_versions: number;
  total_transcripts: number;
}

export interface CliChatRow {
  accountId: number;
  id: number;
  type: string;
  name: string;
  lastUpdated: string | null;
}

export interface ArchiveTools {
  /** Runs `fn` in one transaction with a writer bound to it. */
  importTransaction<T>(fn: (writer: ChatImportWriter) => Promise<T>): Promise<T>;
  /** The account an import writes to (null when the archive has none yet). */
  importAccountId(): Promise<number | null>;
  countChatMessages(target: ImportTarget): Promise<number>;
  existingMessageIds(target: ImportTarget, ids: number[]): Promise<Set<number>>;

  listExportChats(): Promise<ExportChat[]>;
  countExport(filter: ExportFilter): Promise<ExportCounts>;
  exportMessagePage(
    filter: ExportFilter,
    after: number | null,
    limit: number,
  ): Promise<{ messages: ExportMessage[]; last: number | null }>;
  exportVersionPage(
    filter: ExportFilter,
    after: number | null,
    limit: number,
  ): Promise<{ versions: ExportVersion[]; last: number | null }>;
  listCliChats(): Promise<CliChatRow[]>;
  /** The newest migration applied (0 for an empty database). */
  schemaRevision(): Promise<number>;

  /** This archive's accounts, as a merge source. */
  listMergeAccounts(): Promise<SourceAccount[]>;
  /** Rows of these accounts whose chat or message is missing (merge source check). */
  countOrphans(accountIds: number[]): Promise<Record<string, number>>;
  /** Copies the planned accounts of `source` into this archive in one transaction. */
  mergeArchive(source: ArchiveTools, plan: MergePlan, hooks: MergeHooks): Promise<MergeResult>;

  /** Tables to copy to another backend, in foreign-key order (SQLite archives). */
  listCopyTables(): Promise<TableInfo[]>;
  countTableRows(table: string): Promise<number>;
  /** Copies the tables (ids kept) into `target` in one transaction of the target. */
  copyTablesTo(
    target: ArchiveTools,
    tables: TableInfo[],
    batchSize: number,
    onTable: (table: string, rows: number) => void,
  ): Promise<void>;
  /** Moves identity sequences past the ids in use (PostgreSQL; 0 elsewhere). */
  resetSequences(): Promise<number>;
  writableTableColumns(table: string): Promise<string[]>;
  /** Column types as PostgreSQL names them (on a PostgreSQL archive). */
  tableColumnTypes(table: string): Promise<Record<string, string>>;
  /** Photo and video messages in chat and date order (album detection). */
  listAlbumCandidates(): Promise<MediaMessageRow[]>;
  listMessagesWithGroupedId(): Promise<MediaMessageRow[]>;
  /** Media rows that have a file path. */
  listMediaFiles(): Promise<MediaFileRow[]>;
  listAvatarFiles(): Promise<string[]>;
  maintenanceTransaction<T>(fn: (writer: MaintenanceWriter) => Promise<T>): Promise<T>;

  tableChecksum(
    table: TableInfo,
    columns: string[],
    types: Record<string, string>,
    batchSize: number,
  ): Promise<{ rows: number; checksum: string }>;
}

export interface MediaMessageRow {
  accountId: number;
  chatId: number;
  id: number;
  senderId: number | null;
  date: Date;
  raw: Record<string, unknown> | null;
}

export interface MediaFileRow {
  accountId: number;
  /** Storage media id. */
  id: string;
  chatId: number;
  messageId: number;
  type: string;
  filePath: string | null;
  fileSize: number | null;
  contentHash: string | null;
  downloaded: boolean;
}

/** Bound to one open transaction of a maintenance pass. */
export interface MaintenanceWriter {
  setRawData(
    message: { accountId: number; chatId: number; id: number },
    raw: Record<string, unknown>,
  ): Promise<void>;
  setMediaFile(
    media: { accountId: number; id: string },
    file: { filePath: string | null; fileSize?: number | null; contentHash?: string | null },
  ): Promise<void>;
  setAvatarPath(from: string, to: string): Promise<void>;
}

export interface TableInfo {
  name: string;
  /** Primary-key columns (pages walk them). */
  key: string[];
}

export type { MergeHooks, MergePlan, MergeResult, SourceAccount };
