/**
 * What the backup's commands run on: the configuration, the platform, the archive and its backup state,
 * opened for one command and closed after it (withRuntime), and the steps several commands share.
 */
import type { CliIo } from '../../common/cli/command';
import { ConfigError, type Env, scopedEnv } from '../../common/env';
import { createLogger, type Logger, logLevelVar } from '../../common/logger';
import { loadConfig } from '../config';
import { sendQueuedTranscripts } from '../live/send-transcripts';
import { createArchiveStore } from '../store/archive-store';
import { type BackupState, backupState } from '../store/backup-state';
import { NO_SCHEMA } from '../store/migrate';
import { openDriver } from '../store/open';
import type { ArchiveDatabase } from '../store/store';
import { type BackupConfig, loadBackupConfig } from './config';
import type { EngineDeps } from './engine';
import type { ArchiveEvent } from './listener';
import type { Platform, PlatformSession } from './platform';

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
export function missingCredentials(config: BackupConfig): string[] {
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

/**
 * A command's run on the backup's runtime: opened, handed to `work`, closed whatever happens; anything
 * thrown is said as `what: <reason>` and exits 1.
 */
export async function withRuntime(
  env: Env,
  io: CliIo,
  overrides: BackupOverrides,
  what: string,
  work: (runtime: BackupRuntime) => Promise<number>,
): Promise<number> {
  let runtime: BackupRuntime | undefined;
  try {
    runtime = await openRuntime(env, overrides);
    return await work(runtime);
  } catch (error) {
    return failed(io, runtime?.logger ?? backupLogger(env), what, error);
  } finally {
    await runtime?.close();
  }
}

export const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

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

export function engineDeps(runtime: BackupRuntime, overrides: BackupOverrides, env?: Env): EngineDeps {
  const afterRun = overrides.afterRun ?? (env ? transcriptSender(env, runtime.logger) : undefined);
  return {
    ...runtime,
    ...(overrides.signal ? { signal: overrides.signal } : {}),
    ...(afterRun ? { afterRun } : {}),
  };
}

/** Connects each configured account that is archived; calls `fn` with its session and archive account id. */
export async function eachArchivedAccount(
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
