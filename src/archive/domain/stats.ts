import type { components } from '../../../generated/archive/types';
import type { ArchiveConfig } from '../config';
import type { ArchiveStore, Visibility } from '../store/store';

export type ArchiveStats = components['schemas']['ArchiveStats'];

/**
 * `GET /api/stats`: the cached figures over the caller's chats, with the runtime flags the web app reads.
 * Web Push needs VAPID keys, which this build does not start yet, so `push_enabled` is false.
 */
export async function archiveStats(
  store: ArchiveStore,
  config: ArchiveConfig,
  vis: Visibility,
): Promise<ArchiveStats> {
  const [figures, flags] = await Promise.all([store.getArchiveFigures(vis), store.getRuntimeFlags()]);
  const active = flags.listeners.filter((l) => l.active);
  const since = active
    .map((l) => l.active_since)
    .filter((s): s is string => s !== null)
    .sort()[0];
  return {
    ...figures,
    timezone: config.timezone,
    stats_calculation_hour: config.statsCalculationHour,
    show_stats: config.showStats,
    listener_active: active.length > 0,
    listener_active_since: since ?? null,
    backup_in_progress: flags.backupInProgress,
    push_notifications: config.push.mode,
    push_enabled: false,
    enable_notifications: config.push.mode !== 'off' || config.push.enableNotifications,
  };
}
