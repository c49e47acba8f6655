/**
 * The maintenance scripts that talk to the platform: `auth_noninteractive` (`send`, then
 * `verify CODE [2FA_PASSWORD]`, for the single legacy account) and `restore_chat` (re-sends archived
 * messages into a platform chat as the session's account). Each takes its parsed arguments and returns the
 * exit code, like the commands in commands.ts.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CliIo } from '../../common/cli/command';
import { ConfigError, type Env } from '../../common/env';
import type { RestorableMessage } from '../store/backup-state';
import { loadBackupConfig } from './config';
import { normalizePhone } from './engine';
import { FloodWaitError } from './platform';
import {
  type BackupOverrides,
  type BackupRuntime,
  backupLogger,
  failed,
  platformFor,
  withRuntime,
} from './runtime';

const AUTH_USAGE = 'usage: archive-cli auth_noninteractive {send,verify} [CODE] [2FA_PASSWORD]';

/** The single legacy account: MSGR_PHONE, or account 1 when only numbered accounts are set. */
function legacyAccount(env: Env) {
  const config = loadBackupConfig(env);
  const account = config.accounts.find((a) => a.index === 1);
  if (!account) throw new ConfigError('no account configured (MSGR_PHONE)');
  return { config, login: { index: account.index, phone: account.phone } };
}

export async function authNoninteractiveCommand(
  args: string[],
  env: Env,
  io: CliIo,
  overrides: BackupOverrides = {},
): Promise<number> {
  const [step, code, password, ...extra] = args;
  const valid =
    (step === 'send' && code === undefined) ||
    (step === 'verify' && code !== undefined && extra.length === 0);
  if (!valid) {
    io.err(
      `${AUTH_USAGE}\narchive-cli auth_noninteractive: error: ${
        step === 'verify' ? 'verify needs the CODE' : "choose 'send', then 'verify CODE [2FA_PASSWORD]'"
      }`,
    );
    return 2;
  }
  const logger = overrides.logger ?? backupLogger(env);
  try {
    const { config, login } = legacyAccount(env);
    const platform = overrides.platform ?? (await platformFor(config, logger));
    if (step === 'send') {
      await platform.sendCode(login);
      io.out('Code sent. Run: auth_noninteractive verify CODE [2FA_PASSWORD]');
      return 0;
    }
    const user = await platform.verifyCode(login, code as string, password);
    if (!user.phone || normalizePhone(user.phone) !== normalizePhone(login.phone)) {
      io.err('Authentication failed: the logged-in phone differs from the configured one');
      return 1;
    }
    io.out('Authorized.');
    return 0;
  } catch (error) {
    return failed(io, logger, 'Authentication failed', error);
  }
}

/** A flag of restore_chat that is missing or malformed (the command line answers it with its usage, exit 2). */
export class RestoreUsageError extends Error {}

function chatIdOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[+-]?\d+$/.test(value))
    throw new RestoreUsageError(`argument --${name}: invalid int value: '${value}'`);
  return Number(value);
}

function dayOption(value: string | undefined, name: string): Date | undefined {
  if (value === undefined) return undefined;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : null;
  if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value) {
    throw new RestoreUsageError(`argument --${name}: expected a date YYYY-MM-DD: '${value}'`);
  }
  return day;
}

export interface RestoreArgs {
  source: number;
  dest: number;
  after?: Date;
  before?: Date;
  limit?: number;
  delaySeconds: number;
  media: boolean;
  dryRun: boolean;
}

/** restore_chat's flags as the command line parsed them. */
export interface RestoreFlags {
  chat?: string;
  'source-chat'?: string;
  'dest-chat'?: string;
  after?: string;
  before?: string;
  limit?: string;
  delay?: string;
  'no-media'?: boolean;
  'dry-run'?: boolean;
}

/** Checks restore_chat's flags; throws RestoreUsageError on a missing, conflicting or malformed one. */
export function restoreArgs(values: RestoreFlags): RestoreArgs {
  const chat = chatIdOption(values.chat, 'chat');
  const sourceChat = chatIdOption(values['source-chat'], 'source-chat');
  const destChat = chatIdOption(values['dest-chat'], 'dest-chat');
  if (chat !== undefined && (sourceChat !== undefined || destChat !== undefined)) {
    throw new RestoreUsageError('argument --chat: not allowed with --source-chat/--dest-chat');
  }
  if (chat === undefined && (sourceChat === undefined || destChat === undefined)) {
    throw new RestoreUsageError(
      'the following arguments are required: --chat, or --source-chat and --dest-chat',
    );
  }
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw new RestoreUsageError(`argument --limit: invalid int value: '${values.limit}'`);
  }
  const delaySeconds = values.delay === undefined ? 2 : Number(values.delay);
  if (!Number.isFinite(delaySeconds) || delaySeconds < 0 || values.delay?.trim() === '') {
    throw new RestoreUsageError(`argument --delay: invalid float value: '${values.delay}'`);
  }
  const after = dayOption(values.after, 'after');
  const before = dayOption(values.before, 'before');
  return {
    source: (chat ?? sourceChat) as number,
    dest: (chat ?? destChat) as number,
    ...(after && { after }),
    ...(before && { before }),
    ...(limit !== undefined && { limit }),
    delaySeconds,
    media: !values['no-media'],
    dryRun: values['dry-run'] ?? false,
  };
}

/** The archived account whose copy of the chat is restored: the session's own when it holds the chat. */
async function sourceAccount(runtime: BackupRuntime, platformUserId: number, chatId: number) {
  const own = await runtime.state.accountByPlatformUser(platformUserId);
  const holders: number[] = [];
  for (const account of await runtime.state.archivedAccounts()) {
    if ((await runtime.state.archivedChatIds(account.id)).includes(chatId)) holders.push(account.id);
  }
  if (own !== null && holders.includes(own)) return own;
  return holders[0] ?? null;
}

const describe = (m: RestorableMessage, withFile: boolean) =>
  `message ${m.id} (${m.date.toISOString()})${withFile && m.media ? ` with ${m.media.type}` : ''}`;

/**
 * `restore_chat`: re-sends a chat's archived messages, oldest first, into `--dest-chat` (or the same chat)
 * as the session's account, `--delay` seconds apart; files go along unless `--no-media`. Service messages
 * and messages with nothing to send are skipped. `--dry-run` sends nothing and lists what would be sent.
 * Dates: `--after` is inclusive and `--before` exclusive, both at midnight UTC.
 */
export async function restoreChatCommand(
  options: RestoreArgs,
  env: Env,
  io: CliIo,
  overrides: BackupOverrides & { sleep?: (ms: number) => Promise<void> } = {},
): Promise<number> {
  const sleep = overrides.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  const prefix = options.dryRun ? '[DRY RUN] ' : '';
  return withRuntime(env, io, overrides, 'Restore failed', async (runtime) => {
    const account = runtime.config.accounts.find((a) => a.index === 1) ?? runtime.config.accounts[0];
    if (!account) throw new ConfigError('no account configured (MSGR_PHONE)');
    const session = await runtime.platform.connect({ index: account.index, phone: account.phone });
    try {
      const me = await session.me();
      const accountId = await sourceAccount(runtime, me.id, options.source);
      if (accountId === null) {
        io.out(`Chat ${options.source} is not in the archive.`);
        return 1;
      }
      const messages = await runtime.state.restorableMessages(accountId, options.source, {
        ...(options.after && { after: options.after }),
        ...(options.before && { before: options.before }),
        ...(options.limit !== undefined && { limit: options.limit }),
      });
      let sent = 0;
      let skipped = 0;
      for (const m of messages) {
        if (overrides.signal?.aborted) break;
        const withFile = Boolean(options.media && m.media?.downloaded && m.media.filePath);
        if (m.isService || (!withFile && !m.text)) {
          skipped++;
          continue;
        }
        if (options.dryRun) {
          io.out(`[DRY RUN] would send ${describe(m, withFile)}`);
          sent++;
          continue;
        }
        const file =
          withFile && m.media?.filePath
            ? {
                name: m.media.fileName ?? path.basename(m.media.filePath),
                bytes: await readFile(path.join(runtime.config.backupPath, m.media.filePath)),
              }
            : null;
        if (sent > 0 && options.delaySeconds > 0) await sleep(options.delaySeconds * 1000);
        for (;;) {
          try {
            await session.send(options.dest, { text: m.text, file });
            break;
          } catch (error) {
            if (!(error instanceof FloodWaitError) || error.seconds > runtime.config.maxFloodWaitSeconds) {
              throw error;
            }
            runtime.logger.info({ seconds: error.seconds }, 'rate limited: waiting');
            await sleep(error.seconds * 1000);
          }
        }
        io.out(`Sent ${describe(m, withFile)}`);
        sent++;
      }
      io.out(`${prefix}Restore complete:`);
      io.out(`  Messages ${options.dryRun ? 'to send' : 'sent'}: ${sent}`);
      io.out(`  Messages skipped: ${skipped}`);
      return 0;
    } finally {
      await session.disconnect().catch(() => undefined);
    }
  });
}
