/**
 * The backup run: every configured account in turn, each chat swept from its progress marker, then what
 * changed in recent messages (edits, deletions, pins, reactions), topics, folders and avatars, then
 * statistics, then media downloads with retries. A failing account is logged and the others go on; the run
 * fails only when every account failed.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../common/logger';
import { storageMediaId } from '../model/media-layout';
import type { BackupState } from '../store/backup-state';
import { accountScopedKey, BACKUP_KEYS } from '../store/metadata-keys';
import type { ArchiveDatabase } from '../store/store';
import type { NewMessage } from '../store/writer';
import type { BackupAccount, BackupConfig } from './config';
import { avatarPath, chatMediaPath, downloadResumable, mediaExtension, writeFileAtomic } from './media-files';
import {
  FloodWaitError,
  type Platform,
  type PlatformChat,
  type PlatformMessage,
  type PlatformSession,
  type PlatformUser,
} from './platform';

/** How many of a chat's newest archived messages are compared with the platform each run. */
export const RECENT_SYNC_WINDOW = 200;
const BATCH = 200;
const FAILURES_KEPT = 500;
/** Runs a message may fail before it is passed over. */
const FAILED_RUNS_ALLOWED = 2;

export interface EngineDeps {
  config: BackupConfig;
  platform: Platform;
  store: ArchiveDatabase;
  state: BackupState;
  logger: Logger;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
  /** Aborted on SIGTERM: the current chat is finished, then the run stops. */
  signal?: AbortSignal;
  /**
   * Runs at the end of each successful run, after the statistics (the transcript sender). Its failure is
   * logged and does not fail the run.
   */
  afterRun?: (summaries: AccountSummary[]) => Promise<void>;
}

export interface RunOptions {
  /** Back up only this connected session's account (the library entry point's `client`). */
  session?: PlatformSession;
  /** Only these chats (backfill-topics). */
  chatIds?: number[];
  /** Sweep only: no media downloads, no edit/deletion sync (backfill-topics). */
  sweepOnly?: boolean;
  /** Start every selected chat from message 0 (backfill-topics). */
  fromStart?: boolean;
}

export interface AccountSummary {
  accountId: number;
  chats: number;
  messages: number;
  edits: number;
  deletions: number;
  heldBackDeletions: number;
  mediaDownloaded: number;
  mediaFailed: number;
  mediaExhausted: number;
  /** Files recorded as downloaded but missing on disk (verification), downloaded again next run. */
  mediaMissing: number;
  passedOver: number;
  deferredChats: number;
}

export class AllAccountsFailedError extends Error {
  override name = 'RuntimeError';
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The seed's `run_backup(config, client=None)`. */
export async function runBackup(deps: EngineDeps, options: RunOptions = {}): Promise<AccountSummary[]> {
  const now = deps.now ?? (() => new Date());
  const { state, logger } = deps;
  await state.setMetadata(BACKUP_KEYS.lastStartedAt, now().toISOString());
  await state.setMetadata(BACKUP_KEYS.inProgress, '1');
  const summaries: AccountSummary[] = [];
  /** Each failed account's error, in words. */
  const failures: string[] = [];
  try {
    if (options.session) {
      summaries.push(await backupSession(deps, options.session, null, options));
    } else {
      for (const account of deps.config.accounts) {
        if (deps.signal?.aborted) break;
        let session: PlatformSession | null = null;
        try {
          session = await deps.platform.connect({ index: account.index, phone: account.phone });
          summaries.push(await backupSession(deps, session, account, options));
        } catch (error) {
          failures.push(error instanceof Error ? error.message : String(error));
          // With one account, the command's own line says it; with several, each failure is logged and
          // the rest continue.
          if (deps.config.accounts.length > 1) {
            logger.error({ account: account.index, error: errorText(error) }, 'account backup failed');
          }
          logger.debug({ account: account.index, err: error }, 'account backup failed: details');
        } finally {
          await session?.disconnect().catch(() => undefined);
        }
      }
      if (deps.config.accounts.length > 0 && failures.length === deps.config.accounts.length) {
        // One reason for all (a single account, or the network down for every one) is said as it is.
        const reasons = [...new Set(failures)];
        throw new AllAccountsFailedError(
          reasons.length === 1
            ? (reasons[0] as string)
            : `every account failed (${reasons.length} different errors, logged above)`,
        );
      }
    }
    await deps.store.refreshArchiveFigures(now());
    await state.setMetadata(BACKUP_KEYS.lastFinishedAt, now().toISOString());
    if (deps.afterRun && !options.sweepOnly && !deps.signal?.aborted) {
      await deps.afterRun(summaries).catch((error: unknown) => {
        logger.error({ error: errorText(error) }, 'step after the backup run failed');
      });
    }
    return summaries;
  } finally {
    await state.setMetadata(BACKUP_KEYS.inProgress, '0');
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Whether a chat is backed up under the account's whitelist and the global lists. */
export function isSelected(config: BackupConfig, account: BackupAccount | null, chatId: number): boolean {
  if (config.excludeChatIds?.includes(chatId)) return false;
  if (account?.chatIds) return account.chatIds.includes(chatId);
  if (config.includeChatIds) return config.includeChatIds.includes(chatId);
  return true;
}

async function accountIdOf(
  deps: EngineDeps,
  me: PlatformUser,
  account: BackupAccount | null,
): Promise<number> {
  const known = await deps.state.accountByPlatformUser(me.id);
  if (known !== null) return known;
  return deps.store.upsertAccount({ label: account?.label ?? null, platformUserId: me.id });
}

class Run {
  readonly summary: AccountSummary;
  private readonly now: () => Date;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly floodLogged = new Set<string>();

  constructor(
    private readonly deps: EngineDeps,
    private readonly session: PlatformSession,
    readonly accountId: number,
  ) {
    this.now = deps.now ?? (() => new Date());
    this.sleep = deps.sleep ?? sleepFor;
    this.summary = {
      accountId,
      chats: 0,
      messages: 0,
      edits: 0,
      deletions: 0,
      heldBackDeletions: 0,
      mediaDownloaded: 0,
      mediaFailed: 0,
      mediaExhausted: 0,
      mediaMissing: 0,
      passedOver: 0,
      deferredChats: 0,
    };
  }

  /**
   * Runs `fn`; a rate-limit wait up to MAX_FLOOD_WAIT_SECONDS is waited out and `fn` runs again, a longer
   * one is returned so the caller moves the work to the next run.
   */
  async withFloodWait<T>(key: string, fn: () => Promise<T>): Promise<{ value: T } | { deferred: number }> {
    for (;;) {
      try {
        return { value: await fn() };
      } catch (error) {
        if (!(error instanceof FloodWaitError)) throw error;
        const { maxFloodWaitSeconds, floodWaitLogThreshold } = this.deps.config;
        if (error.seconds > maxFloodWaitSeconds) {
          this.deps.logger.warn({ seconds: error.seconds }, 'rate limit wait too long: retried next run');
          return { deferred: error.seconds };
        }
        if (error.seconds >= floodWaitLogThreshold || this.floodLogged.has(key)) {
          this.deps.logger.info({ seconds: error.seconds }, 'rate limited: waiting');
        }
        this.floodLogged.add(key);
        await this.sleep(error.seconds * 1000);
      }
    }
  }

  async chat(chat: PlatformChat, options: RunOptions): Promise<void> {
    const { store, state } = this.deps;
    await store.upsertChat({
      accountId: this.accountId,
      id: chat.id,
      type: chat.type,
      title: chat.title ?? null,
      username: chat.username ?? null,
      firstName: chat.firstName ?? null,
      lastName: chat.lastName ?? null,
      participantsCount: chat.participantsCount ?? null,
      isForum: chat.isForum ?? false,
      isArchived: chat.isArchived ?? false,
    });
    this.summary.chats++;
    if (chat.isForum) {
      for (const topic of await this.session.topics(chat.id)) {
        await store.upsertTopic({ accountId: this.accountId, chatId: chat.id, ...topic });
      }
    }
    if (!options.sweepOnly) await this.avatar(chat);
    const from = options.fromStart ? 0 : await state.syncPosition(this.accountId, chat.id);
    const swept = await this.withFloodWait(`history:${chat.id}`, () => this.sweep(chat.id, from));
    if ('deferred' in swept) {
      this.summary.deferredChats++;
      return;
    }
    if (!options.sweepOnly) await this.syncRecent(chat.id);
  }

  private async avatar(chat: PlatformChat): Promise<void> {
    const { state, store, config } = this.deps;
    const current = chat.avatarPhotoId ?? null;
    const known = await state.currentAvatar(this.accountId, chat.id);
    if (known === current || (known === undefined && current === null)) return;
    let filePath: string | null = null;
    if (current !== null) {
      const picture = await this.session.avatar(chat.id);
      if (picture) {
        filePath = avatarPath(chat.id, picture.photoId);
        await writeFileAtomic(config.backupPath, filePath, picture.bytes);
      }
    }
    await store.addAvatar({
      accountId: this.accountId,
      chatId: chat.id,
      photoId: current,
      seenAt: this.now(),
      filePath,
    });
  }

  /** The chat's new messages from its marker on, in batches; the marker moves after each stored batch. */
  private async sweep(chatId: number, from: number): Promise<void> {
    let batch: PlatformMessage[] = [];
    let marker = from;
    const flush = async () => {
      if (batch.length === 0) return;
      const stored = await this.store(batch);
      if (stored !== null) marker = stored;
      batch = [];
    };
    for await (const message of this.session.history(chatId, from)) {
      if (!isProcessable(message)) {
        await flush();
        if (!(await this.failed(chatId, message.id))) return; // marker stays before it: retried next run
        marker = message.id;
        await this.deps.store.setSyncStatus(this.accountId, chatId, marker, this.now());
        continue;
      }
      batch.push(message);
      if (batch.length >= BATCH) {
        await flush();
        await this.deps.store.setSyncStatus(this.accountId, chatId, marker, this.now());
      }
    }
    await flush();
    await this.deps.store.setSyncStatus(this.accountId, chatId, marker, this.now());
  }

  /** Stores a batch with its media records and reactions; returns the highest id stored. */
  private async store(messages: PlatformMessage[]): Promise<number | null> {
    const { store, state } = this.deps;
    await store.upsertMessages(messages.map((m) => toNewMessage(this.accountId, m)));
    for (const m of messages) {
      if (m.media) {
        await state.recordMedia({
          accountId: this.accountId,
          chatId: m.chatId,
          messageId: m.id,
          type: m.media.kind,
          platformFileId: m.media.fileId,
          fileName: m.media.fileName ?? null,
          mimeType: m.media.mimeType ?? null,
          fileSize: m.media.size ?? null,
          width: m.media.width ?? null,
          height: m.media.height ?? null,
          duration: m.media.duration ?? null,
        });
      }
      if (m.reactions && m.reactions.length > 0) {
        await store.setReactions(
          { accountId: this.accountId, chatId: m.chatId, messageId: m.id },
          m.reactions,
          this.now(),
        );
      }
    }
    this.summary.messages += messages.length;
    return Math.max(...messages.map((m) => m.id));
  }

  /**
   * Counts one more failed run for a message; returns true when it has now failed too often and is passed
   * over (its id kept under `message_failures_<chat_id>`).
   */
  private async failed(chatId: number, messageId: number): Promise<boolean> {
    const { state, logger } = this.deps;
    const retryKey = accountScopedKey(`message_retries_${chatId}`, this.accountId);
    const retries = JSON.parse((await state.getMetadata(retryKey)) ?? '{}') as Record<string, number>;
    const runs = (retries[messageId] ?? 0) + 1;
    if (runs < FAILED_RUNS_ALLOWED) {
      retries[messageId] = runs;
      await state.setMetadata(retryKey, JSON.stringify(retries));
      logger.warn('message could not be processed: retried next run');
      return false;
    }
    delete retries[messageId];
    await state.setMetadata(retryKey, JSON.stringify(retries));
    const failuresKey = accountScopedKey(`${BACKUP_KEYS.messageFailures}_${chatId}`, this.accountId);
    const failures = JSON.parse((await state.getMetadata(failuresKey)) ?? '{"ids":[],"total":0}') as {
      ids: number[];
      total: number;
    };
    failures.ids = [...failures.ids.filter((id) => id !== messageId), messageId]
      .sort((a, b) => b - a)
      .slice(0, FAILURES_KEPT);
    failures.total++;
    await state.setMetadata(failuresKey, JSON.stringify(failures));
    this.summary.passedOver++;
    logger.warn('message failed twice: passed over');
    return true;
  }

  /** Compares the newest archived messages with the platform: edits, deletions, pins, reactions. */
  private async syncRecent(chatId: number): Promise<void> {
    const { store, state, config, logger } = this.deps;
    const archived = (await state.recentMessages(this.accountId, chatId, RECENT_SYNC_WINDOW)).filter(
      (m) => !m.isDeleted,
    );
    if (archived.length === 0) return;
    const current = await this.session.messagesByIds(
      chatId,
      archived.map((m) => m.id),
    );
    const reactions = await state.liveReactions(
      this.accountId,
      chatId,
      archived.map((m) => m.id),
    );
    const gone: number[] = [];
    for (const [i, before] of archived.entries()) {
      const after = current[i];
      const ref = { accountId: this.accountId, chatId, messageId: before.id };
      if (!after) {
        gone.push(before.id);
        continue;
      }
      const editDate = after.editDate ?? null;
      if (
        editDate &&
        (!before.editDate || editDate > before.editDate) &&
        (after.text ?? null) !== before.text
      ) {
        await store.editMessage({ ...ref, text: after.text ?? null, editDate, source: 'backup' });
        this.summary.edits++;
      }
      if ((after.isPinned ?? false) !== before.isPinned)
        await store.setMessagePinned(ref, after.isPinned ?? false);
      // Written only when they changed: most messages keep their reactions from run to run.
      if (reactionKey(after.reactions ?? []) !== reactionKey(reactions.get(before.id) ?? [])) {
        await store.setReactions(ref, after.reactions ?? [], this.now());
      }
    }
    if (gone.length === 0) return;
    if (gone.length >= config.massDeletion.threshold) {
      this.summary.heldBackDeletions += gone.length;
      logger.warn({ count: gone.length }, 'mass deletion held back');
      return;
    }
    for (const messageId of gone) {
      const ref = { accountId: this.accountId, chatId, messageId };
      if (config.deletionMode === 'hard') await store.deleteMessage(ref);
      else await store.markMessageDeleted(ref, this.now());
      this.summary.deletions++;
    }
  }

  /**
   * Media verification: every file recorded as downloaded must be on disk with its recorded size; one that
   * is missing or cut short waits for a download again (next run).
   */
  async verifyMedia(): Promise<void> {
    const { state, config } = this.deps;
    const missing: string[] = [];
    for (const item of await state.downloadedFiles(this.accountId)) {
      const size = item.filePath ? await fileSize(path.join(config.backupPath, item.filePath)) : null;
      if (size === null || (item.fileSize !== null && size !== item.fileSize)) missing.push(item.id);
    }
    await state.markFilesMissing(this.accountId, missing);
    this.summary.mediaMissing = missing.length;
    if (missing.length > 0) {
      this.deps.logger.warn(
        { count: missing.length },
        'media files missing on disk: downloaded again next run',
      );
    }
  }

  async folders(): Promise<void> {
    const folders = await this.session.folders();
    for (const [sortOrder, folder] of folders.entries()) {
      await this.deps.store.upsertFolder({ accountId: this.accountId, sortOrder, ...folder });
    }
  }

  /** Downloads media waiting for it; an item out of attempts is skipped for good, with a warning per run. */
  async media(): Promise<void> {
    const { state, config } = this.deps;
    const pending = await state.pendingMedia(this.accountId, config.mediaMaxAttempts, 100_000);
    for (const item of pending) {
      if (this.deps.signal?.aborted) break;
      const mediaId = storageMediaId(item.chatId, item.messageId, item.type);
      const relative = chatMediaPath(
        this.accountId,
        item.chatId,
        item.messageId,
        item.type,
        mediaExtension(item.type, item.fileName, item.mimeType),
      );
      const media = {
        kind: item.type as never,
        fileId: item.platformFileId ?? '',
        fileName: item.fileName,
        mimeType: item.mimeType,
        size: item.fileSize,
      };
      try {
        const outcome = await this.withFloodWait(`download:${mediaId}`, () =>
          downloadResumable(config.backupPath, relative, (offset) =>
            this.session.download(item.chatId, item.messageId, media, offset),
          ),
        );
        if ('deferred' in outcome) continue;
        await state.mediaDownloaded(
          this.accountId,
          mediaId,
          { filePath: relative, ...outcome.value },
          this.now(),
        );
        this.summary.mediaDownloaded++;
      } catch {
        this.summary.mediaFailed++;
        await state.mediaAttemptFailed(this.accountId, mediaId, this.now());
      }
    }
    if (!this.deps.signal?.aborted) await this.verifyMedia();
    this.summary.mediaExhausted = await state.exhaustedMediaCount(this.accountId, config.mediaMaxAttempts);
    if (this.summary.mediaExhausted > 0) {
      this.deps.logger.warn(
        { count: this.summary.mediaExhausted, attempts: config.mediaMaxAttempts },
        'media permanently skipped after every download attempt failed',
      );
    }
  }
}

const reactionKey = (reactions: { emoji: string; count: number }[]) =>
  reactions
    .filter((r) => r.count > 0)
    .map((r) => `${r.emoji}:${r.count}`)
    .sort()
    .join(' ');

async function fileSize(file: string): Promise<number | null> {
  try {
    return (await stat(file)).size;
  } catch {
    return null;
  }
}

function isProcessable(message: PlatformMessage): boolean {
  return Number.isInteger(message.id) && message.id > 0 && !Number.isNaN(message.date.getTime());
}

export function toNewMessage(accountId: number, m: PlatformMessage): NewMessage {
  return {
    accountId,
    chatId: m.chatId,
    id: m.id,
    senderId: m.senderId ?? null,
    senderName: m.senderName ?? null,
    date: m.date,
    text: m.text ?? null,
    replyToMsgId: m.replyToMsgId ?? null,
    replyToTopId: m.replyToTopId ?? null,
    forwardFromId: m.forwardFromId ?? null,
    editDate: m.editDate ?? null,
    rawData: {
      ...(m.raw ?? {}),
      ...(m.action ? { action: m.action } : {}),
      ...(m.groupedId ? { grouped_id: m.groupedId } : {}),
    },
    poll: m.poll ?? null,
    isOutgoing: m.isOutgoing ?? false,
    isPinned: m.isPinned ?? false,
  };
}

async function backupSession(
  deps: EngineDeps,
  session: PlatformSession,
  account: BackupAccount | null,
  options: RunOptions,
): Promise<AccountSummary> {
  const me = await session.me();
  if (account && me.phone && normalizePhone(me.phone) !== normalizePhone(account.phone)) {
    throw new Error('The logged-in phone differs from the configured one');
  }
  const accountId = await accountIdOf(deps, me, account);
  const run = new Run(deps, session, accountId);
  const chats: PlatformChat[] = [];
  for await (const chat of session.dialogs()) {
    if (!isSelected(deps.config, account, chat.id)) continue;
    if (options.chatIds && !options.chatIds.includes(chat.id)) continue;
    chats.push(chat);
  }
  for (const chat of chats) {
    if (deps.signal?.aborted) break;
    await run.chat(chat, options);
  }
  if (options.sweepOnly) return run.summary;
  await run.folders();
  if (deps.config.downloadMedia && !deps.signal?.aborted) await run.media();
  deps.logger.info({ account: accountId, ...run.summary }, 'account backed up');
  return run.summary;
}

export const normalizePhone = (phone: string) => phone.replace(/[^\d]/g, '');
