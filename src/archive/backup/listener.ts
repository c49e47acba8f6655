/**
 * The real-time listener: the platform's live updates (new messages, edits, deletions, pins, reactions)
 * written to the archive as they happen, then handed to the viewers through `publish`. Deletions wait
 * MASS_OPERATION_BUFFER_DELAY seconds; when a chat's deletions within MASS_OPERATION_WINDOW_SECONDS reach
 * MASS_OPERATION_THRESHOLD they are held back (not applied) with a warning, as a mass deletion.
 */

import type { components } from '../../../generated/archive/types';
import type { Logger } from '../../common/logger';
import type { BackupState } from '../store/backup-state';
import { accountScopedKey, BACKUP_KEYS } from '../store/metadata-keys';
import type { ArchiveDatabase } from '../store/store';
import type { BackupConfig } from './config';
import { toNewMessage } from './engine';
import type { PlatformMessage, PlatformSession, PlatformUpdate } from './platform';

export type ArchiveEvent = components['schemas']['InternalPushEvent'];

/** Longest text a live event carries (PostgreSQL notifications stay under their 8,000-byte limit). */
export const EVENT_TEXT_LIMIT = 500;

/** The message as a `new_message` event carries it: the stored fields, text cut to EVENT_TEXT_LIMIT. */
export function messageFrame(m: PlatformMessage): Record<string, unknown> {
  return {
    id: m.id,
    chat_id: m.chatId,
    sender_id: m.senderId ?? null,
    sender_name: m.senderName ?? null,
    date: m.date.toISOString(),
    text: m.text == null ? null : m.text.slice(0, EVENT_TEXT_LIMIT),
    reply_to_msg_id: m.replyToMsgId ?? null,
    reply_to_top_id: m.replyToTopId ?? null,
    forward_from_id: m.forwardFromId ?? null,
    edit_date: m.editDate ? m.editDate.toISOString() : null,
    is_outgoing: m.isOutgoing ?? false,
    is_pinned: m.isPinned ?? false,
    is_deleted: false,
  };
}

export interface ListenerDeps {
  config: BackupConfig;
  store: ArchiveDatabase;
  state: BackupState;
  logger: Logger;
  publish: (event: ArchiveEvent) => Promise<void>;
  now?: () => Date;
  setTimer?: (fn: () => void, ms: number) => void;
}

interface PendingDeletion {
  chatId: number;
  messageIds: number[];
  at: number;
}

export class Listener {
  private readonly now: () => Date;
  private readonly setTimer: (fn: () => void, ms: number) => void;
  private readonly recentDeletions = new Map<number, number[]>();
  private work: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: ListenerDeps,
    readonly accountId: number,
  ) {
    this.now = deps.now ?? (() => new Date());
    this.setTimer = deps.setTimer ?? ((fn, ms) => void setTimeout(fn, ms).unref());
  }

  /**
   * Subscribes to a session's updates; returns the function that stops listening (resolving once the
   * updates received so far are written and the listener is marked stopped).
   */
  attach(session: PlatformSession): () => Promise<void> {
    const since = this.now().toISOString();
    void this.deps.state.setMetadata(
      accountScopedKey(BACKUP_KEYS.listenerActiveSince, this.accountId),
      since,
    );
    const stop = session.subscribe((update) => {
      this.work = this.work
        .then(() => this.handle(update))
        .catch((error: unknown) => {
          this.deps.logger.error(
            { error: error instanceof Error ? error.name : 'error' },
            'live update failed',
          );
        });
    });
    return () => {
      stop();
      // Stopped: status shows the listener as not running at once, not after the heartbeat grows old.
      return this.work
        .then(async () => {
          await this.deps.state.setMetadata(
            accountScopedKey(BACKUP_KEYS.listenerActiveSince, this.accountId),
            '',
          );
          await this.deps.state.setMetadata(
            accountScopedKey(BACKUP_KEYS.listenerHeartbeatAt, this.accountId),
            '',
          );
        })
        .catch(() => undefined);
    };
  }

  /** Resolves when every update received so far is written and published. */
  idle(): Promise<void> {
    return this.work;
  }

  async heartbeat(): Promise<void> {
    await this.deps.state.setMetadata(
      accountScopedKey(BACKUP_KEYS.listenerHeartbeatAt, this.accountId),
      this.now().toISOString(),
    );
  }

  async handle(update: PlatformUpdate): Promise<void> {
    const { store, state } = this.deps;
    const accountId = this.accountId;
    switch (update.kind) {
      case 'new_message': {
        const m = update.message;
        await store.upsertMessages([toNewMessage(accountId, m)]);
        if (m.media) {
          await state.recordMedia({
            accountId,
            chatId: m.chatId,
            messageId: m.id,
            type: m.media.kind,
            platformFileId: m.media.fileId,
            fileName: m.media.fileName ?? null,
            mimeType: m.media.mimeType ?? null,
            fileSize: m.media.size ?? null,
          });
        }
        // The viewer reads the stored message by id for each view; this copy stands in if it cannot.
        return this.publish('new_message', m.chatId, { message: messageFrame(m) });
      }
      case 'edit': {
        const m = update.message;
        const ref = { accountId, chatId: m.chatId, messageId: m.id };
        const editDate = m.editDate ?? this.now();
        try {
          await store.editMessage({ ...ref, text: m.text ?? null, editDate, source: 'listener' });
        } catch {
          await store.upsertMessages([toNewMessage(accountId, m)]);
        }
        return this.publish('edit', m.chatId, {
          message_id: m.id,
          new_text: m.text ?? '',
          edit_date: editDate.toISOString(),
        });
      }
      case 'pin':
        for (const messageId of update.messageIds) {
          await store.setMessagePinned({ accountId, chatId: update.chatId, messageId }, update.pinned);
        }
        return this.publish('pin', update.chatId, { message_ids: update.messageIds, pinned: update.pinned });
      case 'reaction':
        await store.setReactions(
          { accountId, chatId: update.chatId, messageId: update.messageId },
          update.reactions,
          this.now(),
        );
        return this.publish('reaction', update.chatId, {
          message_id: update.messageId,
          reactions: update.reactions,
        });
      case 'delete':
        return this.bufferDeletion(update.chatId, update.messageIds);
    }
  }

  private async bufferDeletion(chatId: number | null, messageIds: number[]): Promise<void> {
    const byChat =
      chatId !== null
        ? new Map([[chatId, messageIds]])
        : await this.deps.state.chatsOfMessages(this.accountId, messageIds);
    const { bufferDelaySeconds } = this.deps.config.massDeletion;
    for (const [chat, ids] of byChat) {
      const pending: PendingDeletion = { chatId: chat, messageIds: ids, at: this.now().getTime() };
      this.countDeletions(chat, ids.length, pending.at);
      this.setTimer(() => {
        this.work = this.work.then(() => this.applyDeletion(pending));
      }, bufferDelaySeconds * 1000);
    }
  }

  private countDeletions(chatId: number, count: number, at: number): void {
    const times = this.recentDeletions.get(chatId) ?? [];
    for (let i = 0; i < count; i++) times.push(at);
    this.recentDeletions.set(chatId, times);
  }

  /** Deletions of the chat seen within the window around this one (before and during its buffer delay). */
  private deletionsInWindow(chatId: number, at: number): number {
    const windowMs = this.deps.config.massDeletion.windowSeconds * 1000;
    const times = (this.recentDeletions.get(chatId) ?? []).filter(
      (t) => t > this.now().getTime() - windowMs * 2,
    );
    this.recentDeletions.set(chatId, times);
    return times.filter((t) => Math.abs(t - at) <= windowMs).length;
  }

  private async applyDeletion(pending: PendingDeletion): Promise<void> {
    const { config, store, logger } = this.deps;
    if (this.deletionsInWindow(pending.chatId, pending.at) >= config.massDeletion.threshold) {
      logger.warn({ count: pending.messageIds.length }, 'mass deletion held back');
      return;
    }
    const deletedAt = this.now();
    for (const messageId of pending.messageIds) {
      const ref = { accountId: this.accountId, chatId: pending.chatId, messageId };
      if (config.deletionMode === 'hard') await store.deleteMessage(ref);
      else await store.markMessageDeleted(ref, deletedAt);
      await this.publish('delete', pending.chatId, {
        message_id: messageId,
        deletion_mode: config.deletionMode,
        deleted_at: deletedAt.toISOString(),
      });
    }
  }

  private async publish(
    type: ArchiveEvent['type'],
    chatId: number,
    data: Record<string, unknown>,
  ): Promise<void> {
    try {
      // The fields of each type are checked where the viewer takes the event (the document's oneOf).
      await this.deps.publish({ type, chat_id: chatId, account_id: this.accountId, data } as ArchiveEvent);
    } catch (error) {
      // The archive already holds the change; a viewer that missed it shows it on its next read.
      this.deps.logger.warn(
        { type, error: error instanceof Error ? error.message : 'error' },
        'live event not delivered',
      );
    }
  }
}
