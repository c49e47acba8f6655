import { mediaTypeOf } from '../../model/content-type';
import type { Driver } from '../driver';
import { bool, isoRequired, str, toTranscript } from '../rows';
import { sql } from '../sql';
import type {
  ChatKey,
  QueuedTranscript,
  Transcript,
  TranscriptMedia,
  TranscriptOutcome,
  TranscriptTarget,
} from '../types';
import type { Db } from './common';

function toTranscriptMedia(r: Record<string, unknown>): TranscriptMedia {
  return {
    storageId: String(r.id),
    accountId: Number(r.account_id),
    chatId: Number(r.chat_id),
    messageId: Number(r.message_id),
    type: String(r.type),
    mimeType: mediaTypeOf(r.mime_type),
    filePath: str(r.file_path),
    downloaded: bool(r.downloaded),
    contentHash: str(r.content_hash),
  };
}

/** The media item behind a chat-relative key `{message_id}_{type}`, or null. */
export async function findMediaByKey(db: Db, chat: ChatKey, key: string): Promise<TranscriptMedia | null> {
  const match = /^(\d+)_([a-z0-9_]+)$/.exec(key);
  if (!match) return null;
  const row = await db.get(sql`SELECT * FROM media WHERE account_id = ${chat.accountId}
    AND chat_id = ${chat.chatId} AND message_id = ${Number(match[1])} AND type = ${match[2]}`);
  return row ? toTranscriptMedia(row) : null;
}

/** Every archived copy of a storage media id with its chat's ref (visibility is checked by the caller). */
export async function findMediaByStorageId(
  db: Db,
  storageId: string,
): Promise<(TranscriptMedia & { ref: string })[]> {
  const rows = await db.all(sql`SELECT md.*, c.ref AS c_ref FROM media md
    JOIN chats c ON c.account_id = md.account_id AND c.id = md.chat_id
    WHERE md.id = ${storageId} ORDER BY md.account_id`);
  return rows.map((r) => ({ ...toTranscriptMedia(r), ref: String(r.c_ref) }));
}

export async function listTranscriptsOf(db: Db, media: TranscriptMedia): Promise<Transcript[]> {
  const rows = await db.all(sql`SELECT * FROM media_transcripts WHERE account_id = ${media.accountId}
    AND media_id = ${media.storageId} ORDER BY requested_at DESC, id DESC`);
  return rows.map(toTranscript);
}

/**
 * Queues a request, or returns the one already open (queued or running) for that media item; the partial
 * unique index keeps at most one open row, so two racing requests end with one.
 */
export async function queueTranscript(
  driver: Driver,
  media: TranscriptMedia,
  requestedBy: string | null,
  now = new Date(),
): Promise<{ transcript: Transcript; created: boolean }> {
  return driver.transaction(async (tx) => {
    const open = await tx.get(sql`SELECT * FROM media_transcripts WHERE account_id = ${media.accountId}
      AND media_id = ${media.storageId} AND status IN ('queued', 'running')`);
    if (open) return { transcript: toTranscript(open), created: false };
    const row = await tx.get(sql`INSERT INTO media_transcripts (account_id, media_id, content_hash, status,
        requested_at, requested_by)
      VALUES (${media.accountId}, ${media.storageId}, ${media.contentHash}, 'queued', ${now}, ${requestedBy})
      RETURNING *`);
    return { transcript: toTranscript(row as Record<string, unknown>), created: true };
  });
}

/** New requests of one login since a time, and how many of its requests are still open. */
export async function transcriptAsks(
  db: Db,
  username: string,
  since: Date,
): Promise<{ recent: Date[]; open: number }> {
  const rows = await db.all(sql`SELECT requested_at FROM media_transcripts WHERE requested_by = ${username}
    AND requested_at >= ${since} ORDER BY requested_at`);
  const open = await db.get(sql`SELECT count(*) AS n FROM media_transcripts WHERE requested_by = ${username}
    AND status IN ('queued', 'running')`);
  return { recent: rows.map((r) => new Date(isoRequired(r.requested_at))), open: Number(open?.n ?? 0) };
}

/** Queued requests with their files, oldest first (the sender's work list). */
export async function listQueuedTranscripts(db: Db, limit: number): Promise<QueuedTranscript[]> {
  const rows = await db.all(sql`SELECT t.id AS t_id, md.* FROM media_transcripts t
    JOIN media md ON md.account_id = t.account_id AND md.id = t.media_id
    WHERE t.status = 'queued' ORDER BY t.requested_at, t.id LIMIT ${limit}`);
  return rows.map((r) => ({ transcriptId: Number(r.t_id), media: toTranscriptMedia(r) }));
}

/** Who to tell about a transcript row: its chat and message. */
export async function transcriptTarget(db: Db, transcriptId: number): Promise<TranscriptTarget | null> {
  const row = await db.get(sql`SELECT t.id, t.status, md.account_id, md.chat_id, md.message_id
    FROM media_transcripts t JOIN media md ON md.account_id = t.account_id AND md.id = t.media_id
    WHERE t.id = ${transcriptId}`);
  if (!row) return null;
  return {
    transcriptId: Number(row.id),
    status: String(row.status) as Transcript['status'],
    accountId: Number(row.account_id),
    chatId: Number(row.chat_id),
    messageId: Number(row.message_id),
  };
}

export async function markTranscriptSubmitted(
  db: Db,
  transcriptId: number,
  jobId: string,
  source: string | null,
): Promise<void> {
  await db.run(sql`UPDATE media_transcripts SET status = 'running', job_id = ${jobId}, source = ${source}
    WHERE id = ${transcriptId} AND status = 'queued'`);
}

export async function markTranscriptFailed(
  db: Db,
  transcriptId: number,
  error: string,
  now: Date = new Date(),
): Promise<void> {
  await db.run(sql`UPDATE media_transcripts SET status = 'failed', error = ${error}, completed_at = ${now}
    WHERE id = ${transcriptId} AND status IN ('queued', 'running')`);
}

/**
 * Applies a job's outcome to its open transcript (found by job id, else by the audio's content hash);
 * null when no open request waits for it.
 */
export async function completeTranscript(driver: Driver, outcome: TranscriptOutcome): Promise<number | null> {
  return driver.transaction(async (tx) => {
    let row = outcome.jobId
      ? await tx.get(sql`SELECT id FROM media_transcripts WHERE job_id = ${outcome.jobId}
          AND status IN ('queued', 'running')`)
      : undefined;
    if (!row && outcome.contentHash) {
      row = await tx.get(sql`SELECT id FROM media_transcripts WHERE content_hash = ${outcome.contentHash}
        AND status IN ('queued', 'running') ORDER BY requested_at LIMIT 1`);
    }
    if (!row) return null;
    const id = Number(row.id);
    await tx.run(sql`UPDATE media_transcripts SET status = ${outcome.status}, error = ${outcome.error},
        text = ${outcome.text}, language = ${outcome.language}, engine_name = ${outcome.engineName},
        engine_version = ${outcome.engineVersion}, confidence = ${outcome.confidence},
        duration_s = ${outcome.durationS}, completed_at = ${outcome.completedAt},
        source = coalesce(source, ${outcome.source})
      WHERE id = ${id}`);
    return id;
  });
}
