/**
 * The backup engine's own reads and writes (progress markers, recent messages to compare with the platform,
 * media downloads), next to the ArchiveWriter the importer shares. Built over the same driver as the store.
 */
import type { Driver } from './driver';
import * as backup from './queries/backup';
import { getMetadata, setMetadata } from './queries/settings';

export type {
  ArchivedMessageState,
  BackupMedia,
  BackupMediaInput,
  RestorableMessage,
} from './queries/backup';

export interface BackupState {
  syncPosition(accountId: number, chatId: number): Promise<number>;
  recentMessages(accountId: number, chatId: number, limit: number): Promise<backup.ArchivedMessageState[]>;
  messageIds(accountId: number, chatId: number): Promise<number[]>;
  recordMedia(media: backup.BackupMediaInput): Promise<string>;
  pendingMedia(accountId: number, maxAttempts: number, limit: number): Promise<backup.BackupMedia[]>;
  mediaDownloaded(
    accountId: number,
    mediaId: string,
    file: { filePath: string; fileSize: number; contentHash: string },
    at: Date,
  ): Promise<void>;
  mediaAttemptFailed(accountId: number, mediaId: string, at: Date): Promise<number>;
  exhaustedMediaCount(accountId: number, maxAttempts: number): Promise<number>;
  currentAvatar(accountId: number, chatId: number): Promise<string | null | undefined>;
  accountByPlatformUser(platformUserId: number): Promise<number | null>;
  chatsOfMessages(accountId: number, ids: number[]): Promise<Map<number, number[]>>;
  retypeRoundVideos(accountId: number, chatId: number, messageIds: number[]): Promise<number>;
  videoMessageIds(accountId: number, chatId: number): Promise<number[]>;
  archivedChatIds(accountId: number): Promise<number[]>;
  archivedAccounts(): Promise<{ id: number; platformUserId: number | null }[]>;
  resetSyncPosition(accountId: number, chatId: number): Promise<void>;
  restorableMessages(
    accountId: number,
    chatId: number,
    window: { after?: Date; before?: Date; limit?: number },
  ): Promise<backup.RestorableMessage[]>;
  liveReactions(
    accountId: number,
    chatId: number,
    messageIds: number[],
  ): Promise<Map<number, { emoji: string; count: number }[]>>;
  downloadedFiles(
    accountId: number,
  ): Promise<{ id: string; filePath: string | null; fileSize: number | null }[]>;
  markFilesMissing(accountId: number, ids: string[]): Promise<void>;
  getMetadata(key: string): Promise<string | null>;
  setMetadata(key: string, value: string): Promise<void>;
}

export function backupState(driver: Driver): BackupState {
  return {
    syncPosition: (accountId, chatId) => backup.syncPosition(driver, accountId, chatId),
    recentMessages: (accountId, chatId, limit) => backup.recentMessages(driver, accountId, chatId, limit),
    messageIds: (accountId, chatId) => backup.messageIds(driver, accountId, chatId),
    recordMedia: (media) => backup.recordMedia(driver, media),
    pendingMedia: (accountId, maxAttempts, limit) =>
      backup.pendingMedia(driver, accountId, maxAttempts, limit),
    mediaDownloaded: (accountId, mediaId, file, at) =>
      backup.mediaDownloaded(driver, accountId, mediaId, file, at),
    mediaAttemptFailed: (accountId, mediaId, at) => backup.mediaAttemptFailed(driver, accountId, mediaId, at),
    exhaustedMediaCount: (accountId, maxAttempts) =>
      backup.exhaustedMediaCount(driver, accountId, maxAttempts),
    currentAvatar: (accountId, chatId) => backup.currentAvatar(driver, accountId, chatId),
    accountByPlatformUser: (platformUserId) => backup.accountByPlatformUser(driver, platformUserId),
    chatsOfMessages: (accountId, ids) => backup.chatsOfMessages(driver, accountId, ids),
    retypeRoundVideos: (accountId, chatId, ids) => backup.retypeRoundVideos(driver, accountId, chatId, ids),
    videoMessageIds: (accountId, chatId) => backup.videoMessageIds(driver, accountId, chatId),
    archivedChatIds: (accountId) => backup.archivedChatIds(driver, accountId),
    archivedAccounts: () => backup.archivedAccounts(driver),
    resetSyncPosition: (accountId, chatId) => backup.resetSyncPosition(driver, accountId, chatId),
    restorableMessages: (accountId, chatId, window) =>
      backup.restorableMessages(driver, accountId, chatId, window),
    liveReactions: (accountId, chatId, ids) => backup.liveReactions(driver, accountId, chatId, ids),
    downloadedFiles: (accountId) => backup.downloadedFiles(driver, accountId),
    markFilesMissing: (accountId, ids) => backup.markFilesMissing(driver, accountId, ids),
    getMetadata: (key) => getMetadata(driver, key),
    setMetadata: (key, value) => setMetadata(driver, key, value),
  };
}
