/**
 * `archive-cli import`: a desktop-app export (JSON or HTML) into the archive, one transaction per chat.
 * Duplicate message ids inside the export are reported and the first copy kept; a chat that already has
 * messages needs `merge` (then messages already archived are left as they are). A dry run opens the
 * database read-only and writes nothing, files included.
 */
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../common/logger';
import { JsonText } from '../model/int64';
import { storageProblem } from '../store/errors';
import { NO_SCHEMA } from '../store/migrate';
import {
  type ArchiveDatabase,
  type ChatImportWriter,
  type ImportTarget,
  MESSAGES_PER_STATEMENT,
  type NewMessage,
} from '../store/store';
import { isExportPage, readDesktopHtml } from './desktop-html';
import { readDesktopJsonFile } from './desktop-json-thread';
import { type ExportFile, exportFile } from './export-folder';
import { chatMediaPath, MediaCopier, recoverCopies, sha256File } from './media-files';
import { SeenIds } from './seen-ids';
import type { ImportEvent, ImportedChat, ImportedMessage } from './types';
import { ImportError, ImportInterrupted, ImportStopped } from './types';

export interface ImportOptions {
  dir: string;
  chatId: number | null;
  dryRun: boolean;
  skipMedia: boolean;
  merge: boolean;
  mediaRoot: string;
  logger: Logger;
  /** Stops the import at its next entry: the chat in progress is rolled back, with its copied files. */
  signal?: AbortSignal;
}

export interface ChatReport {
  chat: ImportedChat;
  messages: number;
  mediaFiles: number;
  mediaMissing: number;
  /** Media entries whose file is a link leading out of the export (refused, counted in mediaMissing too). */
  mediaOutside: number;
  duplicates: number;
  alreadyArchived: number;
  skipped: number;
}

export interface ImportReport {
  format: 'json' | 'html';
  chats: ChatReport[];
}

/**
 * Messages per write: as many as the store puts in one statement. Batches of 500 written as 400 rows and
 * then 100 had taken 15.6-16.0 s at 1,000,000 messages, one statement of 500 takes 14.2-14.6 s
 * (scripts/bench/README.md, command line).
 */
const BATCH = MESSAGES_PER_STATEMENT;

/** Why an imported media row has no file: the export did not include it, or `--skip-media` left it out. */
export const NOT_IN_EXPORT = 'not_in_export';
export const IMPORT_SKIPPED = 'skipped_on_import';

/** Where an export is: its folder, its format and its main file (result.json, or the first HTML page). */
export interface ExportSource {
  dir: string;
  format: 'json' | 'html';
  /** The file's name inside `dir`. */
  file: string;
}

const PAGE_PROBE_BYTES = 64 * 1024;

/** The first part of a file (enough to tell an export page by its markup). */
function head(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(PAGE_PROBE_BYTES);
    return buffer.subarray(0, readSync(fd, buffer, 0, PAGE_PROBE_BYTES, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * The export a `-p` names: its folder, or its `result.json` or first HTML page itself. In a folder,
 * result.json, then messages.html, then the first HTML page whose markup is an export page (some tools
 * name it index.html); later pages are messages2.html, messages3.html, ...
 */
export function resolveExport(target: string): ExportSource {
  const stat = existsSync(target) ? statSync(target) : null;
  if (!stat) throw new ImportError(`export folder not found: ${target}`);
  const checked = (dir: string, file: string, format: ExportSource['format']): ExportSource => {
    const found = exportFile(dir, file);
    if (found.kind === 'outside') throw new ImportError(`${file} is a link leading out of the export folder`);
    if (found.kind === 'missing') throw new ImportError(`no ${file} in ${dir}`);
    return { dir, format, file };
  };
  if (stat.isFile()) {
    const dir = path.dirname(path.resolve(target));
    const file = path.basename(target);
    if (/\.json$/i.test(file)) return checked(dir, file, 'json');
    if (/\.html?$/i.test(file)) return checked(dir, file, 'html');
    throw new ImportError(`${file} is neither an export's result.json nor one of its HTML pages`);
  }
  const dir = target;
  for (const [file, format] of [
    ['result.json', 'json'],
    ['messages.html', 'html'],
  ] as const) {
    const found = exportFile(dir, file);
    if (found.kind === 'outside') throw new ImportError(`${file} is a link leading out of the export folder`);
    if (found.kind === 'file') return { dir, format, file };
  }
  const first = readdirSync(dir)
    .filter((name) => /\.html?$/i.test(name) && !/^messages\d+\.html$/.test(name))
    .sort()
    .find((name) => {
      const found = exportFile(dir, name);
      return found.kind === 'file' && isExportPage(head(found.path));
    });
  if (first) return { dir, format: 'html', file: first };
  throw new ImportError(`no result.json or exported HTML page in ${dir}`);
}

/** A channel-shaped chat id no chat of the archive has (for the hint of an HTML import without -c). */
async function freeChatId(db: ArchiveDatabase): Promise<number> {
  const first = -1_009_000_000_001;
  try {
    const accountId = await db.importAccountId();
    if (accountId === null) return first;
    for (let id = first; id > first - 100; id--) {
      if ((await db.countChatMessages({ accountId, chatId: id })) === 0) return id;
    }
  } catch {
    // No schema yet (a dry run): every id is free.
  }
  return first;
}

/** The format of an export folder (see resolveExport). */
export const detectExport = (dir: string): 'json' | 'html' => resolveExport(dir).format;

async function* asAsync(events: Iterable<ImportEvent>): AsyncGenerator<ImportEvent> {
  yield* events;
}

class ChatImport {
  readonly report: ChatReport;
  private readonly seen = new SeenIds();
  readonly pins: number[] = [];

  constructor(
    chat: ImportedChat,
    private readonly options: ImportOptions,
    private readonly accountUserId: number | null,
  ) {
    this.report = {
      chat,
      messages: 0,
      mediaFiles: 0,
      mediaMissing: 0,
      mediaOutside: 0,
      duplicates: 0,
      alreadyArchived: 0,
      skipped: 0,
    };
  }

  /** Drops repeated ids (keeping the first) and, when merging, ids the archive already has. */
  async fresh(batch: ImportedMessage[], existing: (ids: number[]) => Promise<Set<number>>) {
    const unique: ImportedMessage[] = [];
    for (const m of batch) {
      if (!this.seen.add(m.id)) {
        this.report.duplicates++;
        continue;
      }
      unique.push(m);
    }
    const archived = await existing(unique.map((m) => m.id));
    this.report.alreadyArchived += archived.size;
    const out = unique.filter((m) => !archived.has(m.id));
    for (const m of out) if (m.pinned !== null) this.pins.push(m.pinned);
    this.report.messages += out.length;
    return out;
  }

  row(target: ImportTarget, m: ImportedMessage): NewMessage {
    return {
      accountId: target.accountId,
      chatId: target.chatId,
      id: m.id,
      senderId: m.senderId,
      senderName: m.senderName,
      date: m.date,
      text: m.text,
      replyToMsgId: m.replyToMsgId,
      forwardFromId: m.forwardFromId,
      editDate: m.editDate,
      rawData: m.rawJson === undefined ? m.raw : new JsonText(m.rawJson),
      poll: m.poll,
      isOutgoing: this.accountUserId !== null && m.senderId === this.accountUserId,
    };
  }

  private missing(found: ExportFile | null): void {
    this.report.mediaMissing++;
    if (found?.kind === 'outside') this.report.mediaOutside++;
  }

  /** Counts the files a real import would copy (dry run). */
  countMedia(messages: ImportedMessage[]): void {
    for (const m of messages) {
      if (!m.media) continue;
      const found = this.options.skipMedia ? null : exportFile(this.options.dir, m.media.relativePath);
      if (found?.kind === 'file') this.report.mediaFiles++;
      else this.missing(found);
    }
  }

  async write(w: ChatImportWriter, target: ImportTarget, messages: ImportedMessage[], copier: MediaCopier) {
    await w.insertMessages(messages.map((m) => this.row(target, m)));
    for (const m of messages) {
      if (m.reactions.length > 0) {
        await w.addReactions({ ...target, messageId: m.id }, m.reactions);
      }
      if (!m.media) continue;
      const media = m.media;
      const found = this.options.skipMedia ? null : exportFile(this.options.dir, media.relativePath);
      const source = found?.kind === 'file' ? found.path : null;
      let stored: { filePath: string; size: number; hash: string } | null = null;
      if (source) {
        const relative = chatMediaPath(target.accountId, target.chatId, m.id, media.type, media.relativePath);
        const hash = await sha256File(source);
        copier.copy(source, relative);
        stored = { filePath: relative, size: statSync(source).size, hash };
        this.report.mediaFiles++;
      } else {
        this.missing(found);
      }
      await w.upsertMedia({
        accountId: target.accountId,
        chatId: target.chatId,
        messageId: m.id,
        type: media.type,
        filePath: stored?.filePath ?? null,
        fileName: media.fileName ?? (media.relativePath ? path.basename(media.relativePath) : null),
        fileSize: stored?.size ?? media.fileSize,
        mimeType: media.mimeType,
        width: media.width,
        height: media.height,
        duration: media.duration,
        contentHash: stored?.hash ?? null,
        downloaded: stored !== null,
        downloadDate: stored ? new Date() : null,
        // A file the export did not carry (or the import left out) is not waiting to be downloaded.
        skipReason: stored ? null : this.options.skipMedia ? IMPORT_SKIPPED : NOT_IN_EXPORT,
      });
    }
  }
}

function refused(chat: ImportedChat, existing: number): ImportError {
  return new ImportError(
    `chat ${chat.id} already has ${existing} messages in the archive; use --merge to import into it`,
  );
}

export async function importExport(db: ArchiveDatabase, given: ImportOptions): Promise<ImportReport> {
  const source = resolveExport(given.dir);
  const { format } = source;
  // Media paths are relative to the export's folder, whichever file `-p` named.
  const options: ImportOptions = { ...given, dir: source.dir };
  if (format === 'html' && options.chatId === null) {
    throw new ImportError(
      "an HTML export does not say which chat it is: give its id with -c/--chat-id in the platform's marked " +
        "format (a user's id as it is, a basic group's id negated, a channel's or supergroup's id after -100, " +
        `as in -1001234567890); for a chat from elsewhere any id the archive does not use will do, such as -c ${await freeChatId(db)}`,
    );
  }
  if (!options.dryRun && (await db.schemaRevision()) === 0) {
    throw new ImportError(NO_SCHEMA);
  }
  if (!options.dryRun) await recoverCopies(db, options);
  const events =
    format === 'json'
      ? readDesktopJsonFile(path.join(source.dir, source.file))
      : asAsync(readDesktopHtml(source.dir, options.chatId as number, source.file));
  const iterator = events[Symbol.asyncIterator]();
  const report: ImportReport = { format, chats: [] };
  const kept = () => (options.dryRun ? [] : report.chats.map((c) => c.chat.title ?? String(c.chat.id)));
  const next = async () => {
    if (options.signal?.aborted) throw new ImportInterrupted(kept());
    const item = await iterator.next();
    return item.done ? null : item.value;
  };
  let accountUserId: number | null = null;

  /** The chat's messages in batches, up to its end; skipped entries are counted. */
  const batches = async function* (chat: ChatImport) {
    let batch: ImportedMessage[] = [];
    for (let event = await next(); event && event.kind !== 'end'; event = await next()) {
      if (event.kind === 'skipped') chat.report.skipped++;
      if (event.kind !== 'message') continue;
      batch.push(event.message);
      if (batch.length >= BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  };

  try {
    for (let event = await next(); event; event = await next()) {
      if (event.kind === 'account') accountUserId = event.userId;
      if (event.kind !== 'chat') continue;
      const chat = new ChatImport(event.chat, options, accountUserId);
      if (options.chatId !== null && event.chat.id !== options.chatId) {
        for await (const _ of batches(chat)) {
          // not the chat asked for
        }
        continue;
      }
      if (options.dryRun) {
        const accountId = await db.importAccountId();
        const target = { accountId: accountId ?? 0, chatId: event.chat.id };
        const existing = accountId === null ? 0 : await db.countChatMessages(target);
        if (existing > 0 && !options.merge) throw refused(event.chat, existing);
        for await (const batch of batches(chat)) {
          const fresh = await chat.fresh(batch, (ids) =>
            existing > 0 ? db.existingMessageIds(target, ids) : Promise.resolve(new Set()),
          );
          chat.countMedia(fresh);
        }
      } else {
        const copier = new MediaCopier(options.mediaRoot);
        const importedChat = event.chat;
        try {
          await db.importTransaction(async (w) => {
            const target = { accountId: await w.ensureAccount(), chatId: importedChat.id };
            const existing = await w.countMessages(target);
            if (existing > 0 && !options.merge) throw refused(importedChat, existing);
            await w.upsertChat({
              accountId: target.accountId,
              id: importedChat.id,
              type: importedChat.type,
              title: importedChat.title,
            });
            for await (const batch of batches(chat)) {
              const fresh = await chat.fresh(batch, (ids) =>
                existing > 0 ? w.existingMessageIds(target, ids) : Promise.resolve(new Set()),
              );
              await chat.write(w, target, fresh, copier);
            }
            if (chat.pins.length > 0) await w.pinMessages(target, chat.pins);
          });
          copier.commit();
        } catch (error) {
          copier.rollback();
          throw error;
        }
      }
      options.logger.info(
        {
          messages: chat.report.messages,
          mediaFiles: chat.report.mediaFiles,
          duplicates: chat.report.duplicates,
          dryRun: options.dryRun,
        },
        'chat imported',
      );
      report.chats.push(chat.report);
    }
  } catch (error) {
    if (error instanceof ImportError || options.dryRun) throw error;
    // Any other failure (a full disk, a database gone): the chats done are kept, and saying so tells
    // how to finish.
    const why =
      storageProblem(error, 'the archive') ?? (error instanceof Error ? error.message : String(error));
    throw new ImportStopped(why, kept(), error);
  } finally {
    await iterator.return?.(undefined);
  }
  if (options.chatId !== null && report.chats.length === 0) {
    throw new ImportError(`chat ${options.chatId} is not in the export`);
  }
  return report;
}
