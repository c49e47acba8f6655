/**
 * The command line's platform-bound commands: `auth`, `backup`, `schedule`, `fill-gaps`,
 * `backfill-topics` and `reclassify-round-videos`, with the seed's output lines and exit codes. Each takes
 * its arguments after the command name and returns the exit code; logs go to stderr.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CronExpressionParser } from 'cron-parser';
import { type CliIo, processIo } from '../../common/cli/command';
import { ConfigError, type Env } from '../../common/env';
import { migrateArchive } from '../store/migrate';
import { loadBackupConfig } from './config';
import { normalizePhone, runBackup } from './engine';
import { loadEventWebhook, withEventWebhook } from './event-webhook';
import { fillChatGaps } from './gaps';
import { Listener } from './listener';
import { moveSharedMedia } from './media-files';
import type { LoginPrompts } from './platform';
import { openDelivery } from './realtime';

import {
  type BackupOverrides,
  type BackupRuntime,
  backupLogger,
  eachArchivedAccount,
  engineDeps,
  failed,
  message,
  missingCredentials,
  openRuntime,
  platformFor,
  withRuntime,
} from './runtime';

export async function authCommand(env: Env, io: CliIo, overrides: BackupOverrides = {}): Promise<number> {
  const logger = overrides.logger ?? backupLogger(env);
  try {
    const config = loadBackupConfig(env);
    const platform = overrides.platform ?? (await platformFor(config, logger));
    if (config.accounts.length === 0) throw new ConfigError('no account configured (MSGR_ACCOUNT_1_PHONE)');
    for (const account of config.accounts) {
      const login = { index: account.index, phone: account.phone };
      if (await platform.isAuthorized(login)) {
        io.out(`Account ${account.index}: already authorized`);
        continue;
      }
      const ask = io.ask ?? processIo.ask;
      const prompts: LoginPrompts = {
        code: () =>
          (ask as (q: string) => Promise<string>)(`Account ${account.index}: enter the code you received: `),
        password: () =>
          (ask as (q: string) => Promise<string>)(
            `Account ${account.index}: two-step verification password: `,
          ),
      };
      const user = await platform.login(login, prompts);
      if (!user.phone || normalizePhone(user.phone) !== normalizePhone(account.phone)) {
        io.err(`Account ${account.index}: the logged-in phone differs from the configured one`);
        return 1;
      }
      io.out(`Account ${account.index}: authorized`);
    }
    return 0;
  } catch (error) {
    return failed(io, logger, 'Authentication failed', error);
  }
}

export async function backupCommand(env: Env, io: CliIo, overrides: BackupOverrides = {}): Promise<number> {
  return withRuntime(env, io, overrides, 'Backup failed', async (runtime) => {
    const moved = await moveSharedMedia(runtime.config.backupPath);
    if (moved > 0) runtime.logger.info({ moved }, 'shared media moved into hash folders');
    const summaries = await runBackup(engineDeps(runtime, overrides, env));
    const total = summaries.reduce((n, s) => n + s.messages, 0);
    io.out(`Backup complete: ${summaries.length} account(s), ${total} new message(s)`);
    return 0;
  });
}

/** `fill-gaps`: one chat or every archived chat; holes of at least `threshold` (GAP_THRESHOLD by default). */
export async function fillGapsCommand(
  input: { chatId?: number; threshold?: number },
  env: Env,
  io: CliIo,
  overrides: BackupOverrides = {},
): Promise<number> {
  return withRuntime(env, io, overrides, 'Gap-fill failed', async (rt) => {
    const threshold = input.threshold ?? rt.config.gapThreshold;
    if (!Number.isInteger(threshold) || threshold < 1)
      throw new ConfigError('threshold must be a whole number of at least 1');
    const only = input.chatId ?? null;
    const reports: Awaited<ReturnType<typeof fillChatGaps>>[] = [];
    await eachArchivedAccount(rt, async (session, accountId) => {
      for (const chatId of await rt.state.archivedChatIds(accountId)) {
        if (only !== null && chatId !== only) continue;
        reports.push(
          await fillChatGaps({ store: rt.store, state: rt.state, session, accountId }, chatId, threshold),
        );
      }
    });
    const recovered = reports.reduce((n, r) => n + r.recovered, 0);
    if (recovered > 0) await rt.store.refreshArchiveFigures(new Date());
    io.out('Gap-fill complete:');
    io.out(`  Chats scanned: ${reports.length}`);
    io.out(`  Chats with gaps: ${reports.filter((r) => r.gaps > 0).length}`);
    io.out(`  Total gaps found: ${reports.reduce((n, r) => n + r.gaps, 0)}`);
    io.out(`  Messages recovered: ${recovered}`);
    for (const r of reports.filter((r) => r.gaps > 0 || r.leadingHole > 0)) {
      const hole =
        r.leadingHole > 0 ? `, ${r.leadingHole} before the first archived message (not filled)` : '';
      io.out(`  Chat ${r.chatId}: ${r.gaps} gap(s), ${r.recovered} recovered${hole}`);
    }
    return 0;
  });
}

/** `backfill-topics`: one archived chat read again from its start. */
export async function backfillTopicsCommand(
  input: { chatId: number },
  env: Env,
  io: CliIo,
  overrides: BackupOverrides = {},
): Promise<number> {
  const { chatId } = input;
  return withRuntime(env, io, overrides, 'Topic backfill failed', async (runtime) => {
    const accounts = await runtime.state.archivedAccounts();
    const holders: number[] = [];
    for (const account of accounts) {
      if ((await runtime.state.archivedChatIds(account.id)).includes(chatId)) holders.push(account.id);
    }
    if (holders.length === 0) {
      io.out(`Chat ${chatId} is not in the archive.`);
      return 1;
    }
    try {
      for (const accountId of holders) await runtime.state.resetSyncPosition(accountId, chatId);
    } catch (error) {
      io.err(`Topic backfill failed: ${message(error)}`);
      return 1;
    }
    const summaries = await runBackup(engineDeps(runtime, overrides), {
      chatIds: [chatId],
      sweepOnly: true,
      fromStart: true,
    });
    io.out(`Topic backfill complete: ${summaries.reduce((n, s) => n + s.messages, 0)} message(s) rewritten`);
    return 0;
  });
}

/** `reclassify-round-videos`: one chat or every archived chat; `dryRun` changes nothing. */
export async function reclassifyRoundVideosCommand(
  input: { chatId?: number; dryRun?: boolean },
  env: Env,
  io: CliIo,
  overrides: BackupOverrides = {},
): Promise<number> {
  return withRuntime(env, io, overrides, 'Reclassification failed', async (rt) => {
    const only = input.chatId ?? null;
    let scanned = 0;
    let found = 0;
    let retyped = 0;
    let errors = 0;
    await eachArchivedAccount(rt, async (session, accountId) => {
      for (const chatId of await rt.state.archivedChatIds(accountId)) {
        if (only !== null && chatId !== only) continue;
        const videos = await rt.state.videoMessageIds(accountId, chatId);
        if (videos.length === 0) continue;
        scanned++;
        try {
          const round = new Set(await session.roundVideoIds(chatId));
          const matching = videos.filter((id) => round.has(id));
          found += matching.length;
          if (!input.dryRun) retyped += await rt.state.retypeRoundVideos(accountId, chatId, matching);
        } catch {
          errors++;
        }
      }
    });
    io.out(`${input.dryRun ? '[DRY RUN] ' : ''}Round-video reclassification complete:`);
    io.out(`  Chats scanned: ${scanned}`);
    io.out(`  Round videos found: ${found}`);
    io.out(`  Rows re-typed: ${retyped}`);
    if (errors > 0) io.out(`  Chats with errors: ${errors}`);
    return 0;
  });
}

export const HEARTBEAT_INTERVAL_MS = 30_000;
const MAX_TIMER_MS = 2 ** 31 - 1;

async function writeHeartbeat(file: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, new Date().toISOString());
}

/** The next time SCHEDULE fires after `from`; an invalid expression is a configuration error. */
export function nextTick(schedule: string, from: Date): Date {
  try {
    return CronExpressionParser.parse(schedule, { currentDate: from }).next().toDate();
  } catch (error) {
    throw new ConfigError(`SCHEDULE: invalid cron expression "${schedule}": ${message(error)}`);
  }
}

/**
 * `schedule`: runs until stopped, after migrating the database. The heartbeat file is written every 30 seconds from the start, before
 * anything connects; then the shared media move, the listeners (ENABLE_LISTENER), one backup at once and one
 * per SCHEDULE tick, gap-fill after each when FILL_GAPS. A run never overlaps the previous one: a tick that
 * comes while a run goes on is skipped. Stopping (SIGTERM) finishes the current chat and exits 0.
 *
 * Not bree, unlike the fuel scrapers: bree runs each job in a worker thread, and a backup run needs this
 * process's platform connections and listeners.
 */
export async function scheduleCommand(env: Env, io: CliIo, overrides: BackupOverrides = {}): Promise<number> {
  const signal = overrides.signal ?? new AbortController().signal;
  let runtime: BackupRuntime | undefined;
  const stops: (() => Promise<void>)[] = [];
  const closers: (() => Promise<void>)[] = [];
  const timers = new Set<NodeJS.Timeout>();
  try {
    const config = loadBackupConfig(env);
    nextTick(config.schedule, new Date());
    await writeHeartbeat(config.heartbeatFile);
    const heartbeat = setInterval(
      () => void writeHeartbeat(config.heartbeatFile).catch(() => undefined),
      HEARTBEAT_INTERVAL_MS,
    );
    timers.add(heartbeat);
    // The backup process migrates at each start, as the seed's backup image does (under the runner's
    // advisory lock on PostgreSQL, so several starting at once migrate once).
    await migrateArchive(config.database, overrides.logger ?? backupLogger(env));
    // Without the platform's credentials (compose started from its example files) there is nothing to
    // back up yet: the process says what to do and waits, healthy, instead of exiting into a restart
    // loop; the database is migrated, so the viewer works meanwhile.
    const missing = missingCredentials(config);
    if (missing.length > 0 && !overrides.platform) {
      (overrides.logger ?? backupLogger(env)).warn(
        `the backup is not configured: set ${missing.join(', ')} (deploy/archive.env in compose), ` +
          'sign in once with `archive-cli auth`, then restart it; waiting',
      );
      io.out('Scheduler waiting: not configured');
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else signal.addEventListener('abort', () => resolve(), { once: true });
      });
      return 0;
    }
    runtime = await openRuntime(env, overrides);
    const rt = runtime;
    await moveSharedMedia(config.backupPath);

    if (config.enableListener) {
      let publish = overrides.publish;
      if (!publish) {
        const delivery = openDelivery(env, config.database, rt.store);
        closers.push(() => delivery.close());
        publish = (event) => delivery.publish(event);
      }
      publish = withEventWebhook(publish, loadEventWebhook(env, rt.logger), rt.logger);
      for (const account of config.accounts) {
        const session = await rt.platform.connect({ index: account.index, phone: account.phone });
        const me = await session.me();
        const accountId =
          (await rt.state.accountByPlatformUser(me.id)) ??
          (await rt.store.upsertAccount({ label: account.label, platformUserId: me.id }));
        const listener = new Listener(
          { config, store: rt.store, state: rt.state, logger: rt.logger, publish },
          accountId,
        );
        const detach = listener.attach(session);
        const beat = setInterval(
          () => void listener.heartbeat().catch(() => undefined),
          HEARTBEAT_INTERVAL_MS,
        );
        timers.add(beat);
        await listener.heartbeat();
        stops.push(async () => {
          await detach();
          await session.disconnect().catch(() => undefined);
        });
      }
    }

    let running: Promise<void> | null = null;
    const run = () => {
      if (running) {
        rt.logger.warn('previous backup still running: this tick is skipped');
        return;
      }
      running = (async () => {
        try {
          await runBackup({ ...engineDeps(rt, overrides, env), signal });
          if (config.fillGaps && !signal.aborted) {
            await fillGapsCommand(
              {},
              env,
              { out: () => undefined, err: (line) => rt.logger.warn(line), errWrite: () => undefined },
              overrides,
            );
          }
        } catch (error) {
          rt.logger.error({ error: message(error) }, 'scheduled backup failed');
        } finally {
          running = null;
        }
      })();
    };
    const arm = (at = nextTick(config.schedule, new Date())) => {
      if (signal.aborted) return;
      const wait = Math.max(0, at.getTime() - Date.now());
      // setTimeout holds at most ~24.8 days; a later tick is waited for in steps.
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          if (wait > MAX_TIMER_MS) return arm(at);
          run();
          arm();
        },
        Math.min(wait, MAX_TIMER_MS),
      );
      timers.add(timer);
    };
    run();
    arm();
    io.out(`Scheduler started: ${config.schedule}`);
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await (running ?? Promise.resolve());
    return 0;
  } catch (error) {
    return failed(io, runtime?.logger ?? backupLogger(env), 'Scheduler failed', error);
  } finally {
    for (const timer of timers) clearTimeout(timer);
    for (const stop of stops) await stop();
    for (const close of closers) await close().catch(() => undefined);
    await runtime?.close();
  }
}
