/**
 * The platform-bound commands as `archive-cli` lists and runs them: name, one-line summary, and a runner
 * taking the command's own arguments. A flag the command does not know, or a missing value, is a usage
 * error (exit 2), as for every command.
 */
import type { Env } from '../../common/env';
import {
  authCommand,
  type BackupOverrides,
  backfillTopicsCommand,
  backupCommand,
  type CommandIo,
  fillGapsCommand,
  reclassifyRoundVideosCommand,
  scheduleCommand,
} from './commands';
import { authNoninteractiveCommand, restoreChatCommand } from './scripts';

export interface BackupCliCommand {
  name: string;
  summary: string;
  usage: string;
  run(args: string[], env: Env, io: CommandIo, overrides: BackupOverrides): Promise<number>;
}

const noArgs =
  (fn: (env: Env, io: CommandIo, overrides: BackupOverrides) => Promise<number>) =>
  (args: string[], env: Env, io: CommandIo, overrides: BackupOverrides) => {
    if (args.length > 0) throw new BackupUsageError(`unrecognized arguments: ${args.join(' ')}`);
    return fn(env, io, overrides);
  };

export class BackupUsageError extends Error {
  override name = 'UsageError';
}

export const BACKUP_CLI_COMMANDS: readonly BackupCliCommand[] = [
  {
    name: 'auth',
    summary: 'log in to the messaging platform with every configured account (interactive)',
    usage: 'usage: archive-cli auth [-h]',
    run: noArgs(authCommand),
  },
  {
    name: 'backup',
    summary: 'back up every account once and exit',
    usage: 'usage: archive-cli backup [-h]',
    run: noArgs(backupCommand),
  },
  {
    name: 'schedule',
    summary: 'back up on the SCHEDULE cron until stopped (listeners with ENABLE_LISTENER=true)',
    usage: 'usage: archive-cli schedule [-h]',
    run: noArgs(scheduleCommand),
  },
  {
    name: 'fill-gaps',
    summary: 'fetch messages missing from gaps in the archived id sequences',
    usage: 'usage: archive-cli fill-gaps [-h] [-c CHAT_ID] [-t THRESHOLD]',
    run: fillGapsCommand,
  },
  {
    name: 'backfill-topics',
    summary: "back one chat up again from its start, rewriting its messages' forum topics",
    usage: 'usage: archive-cli backfill-topics [-h] -c CHAT_ID',
    run: backfillTopicsCommand,
  },
  {
    name: 'reclassify-round-videos',
    summary: 'retype archived videos the platform reports as round videos',
    usage: 'usage: archive-cli reclassify-round-videos [-h] [-c CHAT_ID] [--dry-run]',
    run: reclassifyRoundVideosCommand,
  },
  {
    name: 'auth_noninteractive',
    summary: "log the single legacy account in without a terminal: 'send', then 'verify CODE [2FA_PASSWORD]'",
    usage: 'usage: archive-cli auth_noninteractive [-h] {send,verify} [CODE] [2FA_PASSWORD]',
    run: authNoninteractiveCommand,
  },
  {
    name: 'restore_chat',
    summary: 're-send archived messages into a platform chat (sends real messages; try --dry-run first)',
    usage:
      'usage: archive-cli restore_chat [-h] (--chat ID | --source-chat ID --dest-chat ID) [--after YYYY-MM-DD] ' +
      '[--before YYYY-MM-DD] [--limit N] [--delay SECONDS] [--no-media] [--dry-run]',
    run: restoreChatCommand,
  },
];

/**
 * Runs one of them the way the command line does: `-h` prints its usage; an argument error prints usage
 * and exits 2; `schedule` (and every other) gets a signal that SIGTERM and SIGINT abort, so the current
 * chat is finished and the command returns 0.
 */
export async function runBackupCli(
  command: BackupCliCommand,
  args: string[],
  env: Env,
  io: CommandIo,
  overrides: BackupOverrides = {},
): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    io.out(`${command.usage}\n\n${command.summary}`);
    return 0;
  }
  try {
    return await command.run(args, env, io, overrides);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (
      error instanceof BackupUsageError ||
      (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))
    ) {
      io.err(`${command.usage}\narchive-cli ${command.name}: error: ${(error as Error).message}`);
      return 2;
    }
    throw error;
  }
}

/** An AbortSignal that SIGTERM or SIGINT aborts (once; a second signal is left to the default). */
export function stopSignal(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
    },
  };
}
