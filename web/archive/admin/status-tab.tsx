import { useEffect, useState } from 'preact/hooks';
import { formatBytes } from '../../shared/sizes';
import { api, type Schemas } from '../api';
import { formatDateTime } from '../time';

/** What the archive holds and how its backup and transcription stand. */
export function StatusTab() {
  const [stats, setStats] = useState<Schemas['ArchiveStats'] | null>(null);
  const [status, setStatus] = useState<Schemas['ArchiveStatus'] | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api.GET('/api/stats').then((r) => setStats(r.data ?? null));
    api.GET('/api/status').then((r) => setStatus(r.data ?? null));
  }, []);
  const refresh = async () => {
    setBusy(true);
    const r = await api.POST('/api/stats/refresh');
    setBusy(false);
    if (r.data) setStats(r.data);
  };
  return (
    <div class="cards">
      <div class="card">
        <h2>Archive</h2>
        {stats ? (
          <dl class="facts" data-testid="stats">
            <dt>Chats</dt>
            <dd>{stats.chats}</dd>
            <dt>Messages</dt>
            <dd>{stats.messages}</dd>
            <dt>Media files</dt>
            <dd>
              {stats.media_files} ({formatBytes(stats.total_size_bytes)})
            </dd>
            <dt>Last backup</dt>
            <dd>{formatDateTime(stats.last_backup_time)}</dd>
            <dt>Figures from</dt>
            <dd>{formatDateTime(stats.stats_calculated_at)}</dd>
            <dt>Time zone</dt>
            <dd>{stats.timezone}</dd>
            <dt>Push</dt>
            <dd>{stats.push_notifications}</dd>
          </dl>
        ) : (
          <p>Loading…</p>
        )}
        <button type="button" onClick={refresh} disabled={busy}>
          {busy ? 'Recalculating…' : 'Recalculate now'}
        </button>
      </div>
      <div class="card">
        <h2>Status</h2>
        {status ? (
          <dl class="facts">
            <dt>Backup</dt>
            <dd>
              {status.backup.in_progress ? 'running now' : 'idle'}, last run{' '}
              {formatDateTime(status.backup.last_run)}
            </dd>
            <dt>Listeners</dt>
            <dd>
              {status.listeners.length === 0
                ? 'none'
                : status.listeners
                    .map(
                      (l) =>
                        `account ${l.account_id}: ${l.active ? `active since ${formatDateTime(l.active_since)}` : 'not running'}`,
                    )
                    .join('; ')}
            </dd>
            <dt>Media</dt>
            <dd>
              {status.media.downloaded} downloaded, {status.media.pending} pending, {status.media.exhausted}{' '}
              given up, {status.media.skipped} skipped
            </dd>
            <dt>Database</dt>
            <dd>
              {status.database.backend}, {(status.database.size_bytes / 1_048_576).toFixed(1)} MB
            </dd>
          </dl>
        ) : (
          <p>Loading…</p>
        )}
      </div>
    </div>
  );
}
