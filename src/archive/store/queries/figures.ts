import type { Driver } from '../driver';
import { accountScopedKey, BACKUP_KEYS } from '../metadata-keys';
import { iso } from '../rows';
import { sql } from '../sql';
import type { ArchiveFigures, ArchiveStatus, RuntimeFlags, StatusQuery, Visibility } from '../types';
import { type Db, visibleChats } from './common';
import { getMetadata } from './settings';

const LISTENER_GRACE_MS = 3 * 60 * 1000;

const truthy = (value: string | null) =>
  value !== null && ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());

export async function getArchiveFigures(db: Db, vis: Visibility): Promise<ArchiveFigures> {
  const row = await db.get(sql`
    SELECT count(*) AS chats, coalesce(sum(f.messages), 0) AS messages,
           coalesce(sum(f.media_files), 0) AS media_files, coalesce(sum(f.total_size_bytes), 0) AS bytes
      FROM chat_figures f JOIN chats c ON c.account_id = f.account_id AND c.id = f.chat_id
     WHERE ${visibleChats(vis)}`);
  const bytes = Number(row?.bytes ?? 0);
  return {
    chats: Number(row?.chats ?? 0),
    messages: Number(row?.messages ?? 0),
    media_files: Number(row?.media_files ?? 0),
    total_size_bytes: bytes,
    total_size_mb: Math.round((bytes / 1048576) * 100) / 100,
    stats_calculated_at: iso(await getMetadata(db, BACKUP_KEYS.statsCalculatedAt)),
    last_backup_time: iso(await getMetadata(db, BACKUP_KEYS.lastStartedAt)),
  };
}

export async function refreshArchiveFigures(driver: Driver, now = new Date()): Promise<void> {
  await driver.transaction(async (tx) => {
    await tx.run(sql`DELETE FROM chat_figures`);
    await tx.run(sql`
      INSERT INTO chat_figures (account_id, chat_id, messages, media_files, total_size_bytes, calculated_at)
      SELECT c.account_id, c.id, coalesce(m.n, 0), coalesce(md.n, 0), coalesce(md.bytes, 0), ${now}
        FROM chats c
        LEFT JOIN (SELECT account_id, chat_id, count(*) AS n FROM messages GROUP BY account_id, chat_id) m
               ON m.account_id = c.account_id AND m.chat_id = c.id
        LEFT JOIN (SELECT account_id, chat_id, count(*) AS n, coalesce(sum(file_size), 0) AS bytes
                     FROM media WHERE downloaded = TRUE GROUP BY account_id, chat_id) md
               ON md.account_id = c.account_id AND md.chat_id = c.id`);
    await tx.run(sql`INSERT INTO metadata (key, value) VALUES (${BACKUP_KEYS.statsCalculatedAt}, ${now.toISOString()})
      ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
  });
}

export async function getRuntimeFlags(db: Db, now = new Date()): Promise<RuntimeFlags> {
  const accounts = await db.all<{ id: number }>(sql`SELECT id FROM accounts ORDER BY id`);
  const listeners: RuntimeFlags['listeners'] = [];
  for (const { id } of accounts) {
    const accountId = Number(id);
    const heartbeat = await getMetadata(db, accountScopedKey(BACKUP_KEYS.listenerHeartbeatAt, accountId));
    const since = await getMetadata(db, accountScopedKey(BACKUP_KEYS.listenerActiveSince, accountId));
    const beat = heartbeat ? Date.parse(heartbeat) : Number.NaN;
    listeners.push({
      account_id: accountId,
      active: Number.isFinite(beat) && now.getTime() - beat <= LISTENER_GRACE_MS,
      active_since: iso(since),
    });
  }
  return { backupInProgress: truthy(await getMetadata(db, BACKUP_KEYS.inProgress)), listeners };
}

export async function getArchiveStatus(driver: Driver, q: StatusQuery): Promise<ArchiveStatus> {
  const flags = await getRuntimeFlags(driver, q.now ?? new Date());
  const media = await driver.get(sql`
    SELECT coalesce(sum(CASE WHEN downloaded = TRUE THEN 1 ELSE 0 END), 0) AS downloaded,
           coalesce(sum(CASE WHEN downloaded = FALSE AND skip_reason IS NOT NULL THEN 1 ELSE 0 END), 0) AS skipped,
           coalesce(sum(CASE WHEN downloaded = FALSE AND skip_reason IS NULL
                              AND download_attempts >= ${q.maxDownloadAttempts} THEN 1 ELSE 0 END), 0) AS exhausted,
           coalesce(sum(CASE WHEN downloaded = FALSE AND skip_reason IS NULL
                              AND download_attempts < ${q.maxDownloadAttempts} THEN 1 ELSE 0 END), 0) AS pending
      FROM media`);
  return {
    backup: {
      last_run: iso(await getMetadata(driver, BACKUP_KEYS.lastStartedAt)),
      in_progress: flags.backupInProgress,
    },
    stats_calculated_at: iso(await getMetadata(driver, BACKUP_KEYS.statsCalculatedAt)),
    listeners: flags.listeners,
    media: {
      downloaded: Number(media?.downloaded ?? 0),
      pending: Number(media?.pending ?? 0),
      exhausted: Number(media?.exhausted ?? 0),
      skipped: Number(media?.skipped ?? 0),
    },
    database: { backend: driver.dialect, size_bytes: await driver.sizeBytes() },
  };
}
