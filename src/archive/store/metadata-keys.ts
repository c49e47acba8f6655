/**
 * Keys of the `metadata` table the backup writes and the viewer reads. Keys of accounts other than the
 * first end with `_account_<id>`, as the seed's `message_failures_<chat_id>` does.
 */
export const BACKUP_KEYS = Object.freeze({
  lastStartedAt: 'backup_last_started_at',
  lastFinishedAt: 'backup_last_finished_at',
  inProgress: 'backup_in_progress',
  statsCalculatedAt: 'stats_calculated_at',
  listenerHeartbeatAt: 'listener_heartbeat_at',
  listenerActiveSince: 'listener_active_since',
  messageFailures: 'message_failures',
});

export function accountScopedKey(key: string, accountId: number): string {
  return accountId === 1 ? key : `${key}_account_${accountId}`;
}
