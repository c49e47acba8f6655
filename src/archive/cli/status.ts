/**
 * `status [--json]`: the archive's health read from the database alone. Unhealthy when no backup run
 * ever started, when the last run is not running and the statistics are older than its start, or when
 * `SCHEDULE` fired twice since the last run started (one missed tick is allowed). Times are shown in
 * the command's local time zone (`TZ`), the schedule is read in it too.
 */
import { existsSync, statSync } from 'node:fs';
import { CronExpressionParser } from 'cron-parser';
import { type CommandContext, defineCommand, errorText } from '../../common/cli/command';
import { ConfigError, type Env, intVar, scopedEnv, stringVar } from '../../common/env';
import { type ArchiveStatus, DatabaseUnavailableError } from '../store/store';
import { databaseConfig, openDatabase } from './context';

export const DEFAULT_SCHEDULE = '0 */6 * * *';

export interface StatusReport extends ArchiveStatus {
  healthy: boolean;
  problems: string[];
}

function timeZone(env: Env): string {
  const tz = stringVar(env, 'TZ');
  if (!tz) return Intl.DateTimeFormat().resolvedOptions().timeZone;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz;
  } catch {
    throw new ConfigError(`TZ: unknown time zone "${tz}"`);
  }
}

/** `YYYY-MM-DD HH:MM:SS` in the zone. */
export function localTime(iso: string, tz: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** How often the schedule fired after `since` up to `now` (stops counting at 3). */
export function firedSince(schedule: string, since: Date, now: Date, tz: string): number {
  let expression: ReturnType<typeof CronExpressionParser.parse>;
  try {
    expression = CronExpressionParser.parse(schedule, { currentDate: since, endDate: now, tz });
  } catch (error) {
    throw new ConfigError(`invalid cron expression in SCHEDULE "${schedule}": ${errorText(error)}`);
  }
  let fired = 0;
  while (fired < 3 && expression.hasNext()) {
    const next = expression.next().toDate();
    if (next.getTime() > now.getTime()) break;
    fired++;
  }
  return fired;
}

export function judge(status: ArchiveStatus, schedule: string, now: Date, tz: string): string[] {
  const problems: string[] = [];
  const lastRun = status.backup.last_run;
  if (lastRun === null) {
    problems.push('no backup run has ever started');
    return problems;
  }
  const started = new Date(lastRun);
  const stats = status.stats_calculated_at ? new Date(status.stats_calculated_at) : null;
  if (!status.backup.in_progress && (stats === null || stats.getTime() < started.getTime())) {
    problems.push('the last backup run did not finish: the statistics are older than its start');
  }
  const fired = firedSince(schedule, started, now, tz);
  if (fired >= 2) {
    problems.push(
      `the schedule fired ${fired >= 3 ? '3 or more' : '2'} times since the last backup run started`,
    );
  }
  return problems;
}

async function readStatus(env: Env, ctx: CommandContext): Promise<ArchiveStatus> {
  const config = databaseConfig(env);
  const maxDownloadAttempts = intVar(scopedEnv(env, 'ARCHIVE_'), 'MEDIA_MAX_DOWNLOAD_ATTEMPTS', 5, {
    min: 1,
  });
  const db = await openDatabase(env, ctx.logger, { schema: false });
  try {
    if ((await db.schemaRevision()) === 0) {
      // A database the backup never wrote (the SQLite file was created empty just now): no backup.
      const size = config.backend === 'sqlite' && existsSync(config.path) ? statSync(config.path).size : 0;
      return {
        backup: { last_run: null, in_progress: false },
        stats_calculated_at: null,
        listeners: [],
        media: { downloaded: 0, pending: 0, exhausted: 0, skipped: 0 },
        database: { backend: config.backend, size_bytes: size },
      };
    }
    return await db.getArchiveStatus({ maxDownloadAttempts });
  } finally {
    await db.close();
  }
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;

export const status = defineCommand()({
  name: 'status',
  summary: 'report the archive health from the database (exit 0 healthy, 1 not)',
  options: { json: { type: 'boolean', help: 'print the status as JSON (logs stay on stderr)' } },
  async run(ctx, values) {
    let report: StatusReport;
    let tz: string;
    try {
      const env = scopedEnv(ctx.env, 'ARCHIVE_');
      tz = timeZone(env);
      const schedule = stringVar(env, 'SCHEDULE', DEFAULT_SCHEDULE);
      const now = new Date();
      firedSince(schedule, now, now, tz); // an invalid cron fails even when no run was recorded
      const current = await readStatus(ctx.env, ctx);
      const problems = judge(current, schedule, now, tz);
      report = { ...current, healthy: problems.length === 0, problems };
    } catch (error) {
      // The driver's own words (host, port, file) go to the debug log, not into the status line.
      if (error instanceof DatabaseUnavailableError) ctx.logger.debug({ err: error }, 'database unreachable');
      ctx.io.err(
        `Status failed: ${error instanceof DatabaseUnavailableError ? 'database unreachable' : errorText(error)}`,
      );
      return 1;
    }
    if (values.json) {
      ctx.io.out(JSON.stringify(report, null, 2));
      return report.healthy ? 0 : 1;
    }
    const at = (iso: string | null) => (iso ? localTime(iso, tz) : 'never');
    const lines = [
      `Archive status: ${report.healthy ? 'healthy' : 'UNHEALTHY'}`,
      `Last backup start: ${at(report.backup.last_run)}${report.backup.in_progress ? ' (running now)' : ''}`,
      `Statistics updated: ${at(report.stats_calculated_at)}`,
      ...report.listeners.map(
        (l) =>
          `Listener (account ${l.account_id}): ${l.active ? `running${l.active_since ? ` since ${at(l.active_since)}` : ''}` : 'not running'}`,
      ),
      `Media: ${report.media.downloaded} downloaded, ${report.media.pending} pending, ${report.media.exhausted} exhausted, ${report.media.skipped} skipped`,
      `Database: ${report.database.backend}, ${mb(report.database.size_bytes)}`,
    ];
    if (!report.healthy) lines.push('Problems:', ...report.problems.map((p) => `  - ${p}`));
    ctx.io.out(lines.join('\n'));
    return report.healthy ? 0 : 1;
  },
});
