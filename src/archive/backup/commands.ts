/**
 * The command line's platform-bound commands: `auth`, `backup`, `schedule`, `fill-gaps`,
 * `backfill-topics` and `reclassify-round-videos`, with the seed's output lines and exit codes. Each takes
 * its arguments after the command name and returns the exit code; logs go to stderr.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CronExpressionParser } from 'cron-parser';
import { type CliIo, processIo } from '../../common/cli/command';
import { ConfigError, type Env, scopedEnv } from '../../common/env';
import { createLogger, type Logger, logLevelVar } from '../../common/logger';
import { loadConfig } from '../config';
import { sendQueuedTranscripts } from '../live/send-transcripts';
import { createArchiveStore } from '../store/archive-store';
import { type BackupState, backupState } from '../store/backup-state';
import { migrateArchive, NO_SCHEMA } from '../store/migrate';
import { openDriver } from '../store/open';
import type { ArchiveDatabase } from '../store/store';
import { type BackupConfig, loadBackupConfig } from './config';
import { type EngineDeps, normalizePhone, runBackup } from './engine';
import { loadEventWebhook, withEventWebhook } from './event-webhook';
import { fillChatGaps } from './gaps';
import { type ArchiveEvent, Listener } from './listener';
import { moveSharedMedia } from './media-files';
import type { LoginPrompts, Platform, PlatformSession } from './platform';
import { openDelivery } from './realtime';

/** What the commands are built from; tests give a fake platform and their own publish. */
export interface BackupOverrides {
  platform?: Platform;
  publish?: (event: ArchiveEvent) => Promise<void>;
  signal?: AbortSignal;
  logger?: Logger;
  /** What runs after each successful backup run (the transcript sender); see EngineDeps.afterRun. */
  afterRun?: EngineDeps['afterRun'];
}

/** LOG_LEVEL as the seed gives it (an unknown value is INFO); logs go to stderr. */
export function backupLogger(env: Env): Logger {
  const level = logLevelVar(scopedEnv(env, 'ARCHIVE_'), { unknown: 'info' });
  return createLogger('archive-backup', level, process.stderr as never);
}

export interface BackupRuntime {
  config: BackupConfig;
  platform: Platform;
  store: ArchiveDatabase;
  state: BackupState;
  logger: Logger;
  close(): Promise<void>;
}

/**
 * The real platform; the library prints its own lines and traces only when the log level is debug. Its
 * adapter is loaded here, when a command first needs it: the platform library takes about 0.2 s to load,
 * which every other command of the archive's command line would otherwise pay at its start.
 */
export async function platformFor(config: BackupConfig, logger: Logger): Promise<Platform> {
  if (config.apiId === null || !config.apiHash) {
    throw new ConfigError('MSGR_API_ID and MSGR_API_HASH must be set to reach the messaging platform');
  }
  const { GramJsPlatform } = await import('./gramjs/adapter');
  return new GramJsPlatform({
    apiId: config.apiId,
    apiHash: config.apiHash,
    sessionDir: config.sessionDir,
    libraryLogs: logger.isLevelEnabled('debug'),
  });
}

/** The platform settings a backup needs that are not set. */
function missingCredentials(config: BackupConfig): string[] {
  return [
    ...(config.apiId === null ? ['MSGR_API_ID'] : []),
    ...(config.apiHash ? [] : ['MSGR_API_HASH']),
    ...(config.accounts.length === 0 ? ['MSGR_ACCOUNT_1_PHONE'] : []),
  ];
}

/** A command's failure: one line for the user; the error with its stack only at LOG_LEVEL=debug. */
export function failed(io: CliIo, logger: Logger, what: string, error: unknown): number {
  logger.debug({ err: error }, `${what}: details`);
  io.err(`${what}: ${message(error)}`);
  return 1;
}

export async function openRuntime(
  env: Env,
  overrides: BackupOverrides & { config?: BackupConfig } = {},
): Promise<BackupRuntime> {
  const config = overrides.config ?? loadBackupConfig(env);
  const logger = overrides.logger ?? backupLogger(env);
  const platform = overrides.platform ?? (await platformFor(config, logger));
  const driver = openDriver(config.database, logger);
  const store = createArchiveStore(driver);
  if ((await store.schemaRevision()) === 0) {
    await store.close();
    throw new Error(NO_SCHEMA);
  }
  return { config, platform, store, state: backupState(driver), logger, close: () => store.close() };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The step at the end of each successful run: the transcript sender (live/send-transcripts.ts) submits the
 * queued transcript requests when transcription is on.
 */
export function transcriptSender(env: Env, logger: Logger): NonNullable<EngineDeps['afterRun']> {
  return async () => {
    if (!loadConfig(env).transcription.enabled) return;
    const counts = await sendQueuedTranscripts(env, logger);
    logger.info(counts, 'queued transcript requests sent');
  };
}

function engineDeps(runtime: BackupRuntime, overrides: BackupOverrides, env?: Env): EngineDeps {
  const afterRun = overrides.afterRun ?? (env ? transcriptSender(env, runtime.logger) : undefined);
  return {
    ...runtime,
    ...(overrides.signal ? { signal: overrides.signal } : {}),
    ...(afterRun ? { afterRun } : {}),
  };
}

/** Connects each configured account that is archived; calls `fn` with its session and archive account id. */
async function eachArchivedAccount(
  runtime: BackupRuntime,
  fn: (session: PlatformSession, accountId: number) => Promise<void>,
): Promise<void> {
  for (const account of runtime.config.accounts) {
    const session = await runtime.platform.connect({ index: account.index, phone: account.phone });
    try {
      const me = await session.me();
      const accountId = await runtime.state.accountByPlatformUser(me.id);
      if (accountId !== null) await fn(session, accountId);
    } finally {
      await session.disconnect().catch(() => undefined);
    }
  }
}

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
  let runtime: BackupRuntime | undefined;
  try {
    runtime = await openRuntime(env, overrides);
    const moved = await moveSharedMedia(runtime.config.backupPath);
    if (moved > 0) runtime.logger.info({ moved }, 'shared media moved into hash folders');
    const summaries = await runBackup(engineDeps(runtime, overrides, env));
    const total = summaries.reduce((n, s) => n + s.messages, 0);
    io.out(`Backup complete: ${summaries.length} account(s), ${total} new message(s)`);
    return 0;
  } catch (error) {
    return failed(io, runtime?.logger ?? backupLogger(env), 'Backup failed', error);
  } finally {
    await runtime?.close();
  }
}

/** `fill-gaps`: one chat or every archived chat; holes of at least `threshold` (GAP_THRESHOLD by default). */
export async function fillGapsCommand(
  input: { chatId?: number; threshold?: number },
  env: Env,
  io: CliIo,
  overrides: BackupOverrides = {},
): Promise<number> {
  let runtime: BackupRuntime | undefined;
  try {
    runtime = await openRuntime(env, overrides);
    const threshold = input.threshold ?? runtime.config.gapThreshold;
    if (!Number.isInteger(threshold) || threshold < 1)
      throw new ConfigError('threshold must be a whole number of at least 1');
    const only = input.chatId ?? null;
    const reports: Awaited<ReturnType<typeof fillChatGaps>>[] = [];
    const rt = runtime;
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
  } catch (error) {
    return failed(io, runtime?.logger ?? backupLogger(env), 'Gap-fill failed', error);
  } finally {
    await runtime?.close();
  }
}

/** `backfill-topics`: one archived chat read again from its start. */
export async function backfillTopicsCommand(
  input: { chatId: number },
  env: Env,
  io: CliIo,
  overrides: BackupOverrides = {},
): Promise<number> {
  const { chatId } = input;
  let runtime: BackupRuntime | undefined;
  try {
    runtime = await openRuntime(env, overrides);
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
  } catch (error) {
    return failed(io, runtime?.logger ?? backupLogger(env), 'Topic backfill failed', error);
  } finally {
    await runtime?.close();
  }
}

/** `reclassify-round-videos`: one chat or every archived chat; `dryRun` changes nothing. */
export async function reclassifyRoundVideosCommand(
  input: { chatId?: number; dryRun?: boolean },
  env: Env,
  io: CliIo,
  overrides: BackupOverrides = {},
): Promise<number> {
  let runtime: BackupRuntime | undefined;
  try {
    runtime = await openRuntime(env, overrides);
    const only = input.chatId ?? null;
    let scanned = 0;
    let found = 0;
    let retyped = 0;
    let errors = 0;
    const rt = runtime;
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
  } catch (error) {
    return failed(io, runtime?.logger ?? backupLogger(env), 'Reclassification failed', error);
  } finally {
    await runtime?.close();
  }
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
