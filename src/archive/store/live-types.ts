/** Store shapes of live updates: push subscriptions, media to transcribe, transcript outcomes. */
import type { TranscriptStatus } from './types';

export interface NewPushSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  username: string | null;
  /** Stored id of the session that subscribed (null for proxy and anonymous logins). */
  sessionId: string | null;
  /** One chat only, or null for every chat the login can see. */
  accountId: number | null;
  chatId: number | null;
  chatRef: string | null;
  /** The login's grants when it subscribed. */
  allowedAccounts: number[] | null;
  allowedChatRefs: string[] | null;
  noDownload: boolean;
  userAgent: string | null;
}

export interface PushSubscriptionRow {
  endpoint: string;
  p256dh: string;
  auth: string;
  username: string | null;
  chatRef: string | null;
  noDownload: boolean;
  allowedAccounts: number[] | null;
  allowedChatRefs: string[] | null;
}

export interface TranscriptMedia {
  /** The media table's id, `{chat_id}_{message_id}_{type}`. */
  storageId: string;
  accountId: number;
  chatId: number;
  messageId: number;
  type: string;
  mimeType: string | null;
  filePath: string | null;
  downloaded: boolean;
  contentHash: string | null;
}

export interface QueuedTranscript {
  transcriptId: number;
  media: TranscriptMedia;
}

export interface TranscriptTarget {
  transcriptId: number;
  status: TranscriptStatus;
  accountId: number;
  chatId: number;
  messageId: number;
}

export interface TranscriptOutcome {
  jobId: string | null;
  contentHash: string | null;
  status: 'done' | 'failed';
  error: string | null;
  text: string | null;
  language: string | null;
  engineName: string | null;
  engineVersion: string | null;
  confidence: number | null;
  durationS: number | null;
  source: string | null;
  completedAt: Date;
}
