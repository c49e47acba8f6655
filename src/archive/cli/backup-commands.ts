/**
 * The commands that talk to the messaging platform, each declared once here (flags, help, summary) and
 * parsed once by the dispatcher: their run hands the parsed values, typed, to the backup's use cases.
 * Every run gets a signal that SIGTERM and SIGINT abort (`schedule` finishes the current chat and exits 0).
 */

import {
  type Command,
  type CommandContext,
  intOption,
  type OptionSpec,
  UsageError,
} from '../../common/cli/command';
import { stopSignal } from '../../common/cli/stop-signal';
import {
  authCommand,
  backfillTopicsCommand,
  backupCommand,
  fillGapsCommand,
  reclassifyRoundVideosCommand,
  scheduleCommand,
} from '../backup/commands';
import type { BackupOverrides } from '../backup/runtime';
import {
  authNoninteractiveCommand,
  type RestoreFlags,
  RestoreUsageError,
  restoreArgs,
  restoreChatCommand,
} from '../backup/scripts';

const CHAT_ID: OptionSpec = { type: 'string', short: 'c', metavar: 'CHAT_ID', help: 'one platform chat id' };

/** A platform chat id (negative for groups and channels), or a usage error naming the flag. */
function chatId(value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[+-]?\d+$/.test(value)) {
    throw new UsageError(`argument -c/--chat-id: invalid int value: '${String(value)}'`);
  }
  return Number(value);
}

/** Runs a use case with the command's logger and a stop signal. */
async function withStop(
  ctx: CommandContext,
  work: (overrides: BackupOverrides) => Promise<number>,
): Promise<number> {
  const stop = stopSignal();
  try {
    return await work({ signal: stop.signal, logger: ctx.logger });
  } finally {
    stop.dispose();
  }
}

export const backupCommands: Command[] = [
  {
    name: 'auth',
    summary: 'log in to the messaging platform with every configured account (interactive)',
    options: {},
    run: (ctx) => withStop(ctx, (o) => authCommand(ctx.env, ctx.io, o)),
  },
  {
    name: 'backup',
    summary: 'back up every account once and exit',
    options: {},
    run: (ctx) => withStop(ctx, (o) => backupCommand(ctx.env, ctx.io, o)),
  },
  {
    name: 'schedule',
    summary: 'back up on the SCHEDULE cron until stopped (listeners with ENABLE_LISTENER=true)',
    options: {},
    run: (ctx) => withStop(ctx, (o) => scheduleCommand(ctx.env, ctx.io, o)),
  },
  {
    name: 'fill-gaps',
    summary: 'fetch messages missing from gaps in the archived id sequences',
    options: {
      'chat-id': CHAT_ID,
      threshold: {
        type: 'string',
        short: 't',
        metavar: 'THRESHOLD',
        help: 'minimum gap size (GAP_THRESHOLD, 50)',
      },
    },
    run: (ctx, values) => {
      const input = {
        chatId: chatId(values['chat-id']),
        threshold: values.threshold === undefined ? undefined : intOption(values, 'threshold', 0, 1),
      };
      return withStop(ctx, (o) => fillGapsCommand(input, ctx.env, ctx.io, o));
    },
  },
  {
    name: 'backfill-topics',
    summary: "back one chat up again from its start, rewriting its messages' forum topics",
    options: { 'chat-id': { ...CHAT_ID, required: true } },
    run: (ctx, values) => {
      const input = { chatId: chatId(values['chat-id']) as number };
      return withStop(ctx, (o) => backfillTopicsCommand(input, ctx.env, ctx.io, o));
    },
  },
  {
    name: 'reclassify-round-videos',
    summary: 'retype archived videos the platform reports as round videos',
    options: { 'chat-id': CHAT_ID, 'dry-run': { type: 'boolean', help: 'change nothing, only count' } },
    run: (ctx, values) => {
      const input = { chatId: chatId(values['chat-id']), dryRun: values['dry-run'] === true };
      return withStop(ctx, (o) => reclassifyRoundVideosCommand(input, ctx.env, ctx.io, o));
    },
  },
  {
    name: 'auth_noninteractive',
    summary: "log the single legacy account in without a terminal: 'send', then 'verify CODE [2FA_PASSWORD]'",
    options: {},
    positionals: { names: ['{send,verify}', 'CODE', '2FA_PASSWORD'], min: 1 },
    run: (ctx, _values, positionals) =>
      withStop(ctx, (o) => authNoninteractiveCommand(positionals, ctx.env, ctx.io, o)),
  },
  {
    name: 'restore_chat',
    summary: 're-send archived messages into a platform chat (sends real messages; try --dry-run first)',
    usage:
      'usage: archive-cli restore_chat [-h] (--chat ID | --source-chat ID --dest-chat ID) [--after YYYY-MM-DD] ' +
      '[--before YYYY-MM-DD] [--limit N] [--delay SECONDS] [--no-media] [--dry-run]',
    options: {
      chat: { type: 'string', metavar: 'ID', help: 'restore a chat into itself' },
      'source-chat': { type: 'string', metavar: 'ID', help: 'the archived chat to read' },
      'dest-chat': { type: 'string', metavar: 'ID', help: 'the platform chat to send into' },
      after: { type: 'string', metavar: 'YYYY-MM-DD', help: 'messages from this day on' },
      before: { type: 'string', metavar: 'YYYY-MM-DD', help: 'messages before this day' },
      limit: { type: 'string', metavar: 'N', help: 'at most N messages' },
      delay: { type: 'string', metavar: 'SECONDS', help: 'pause between sends (2.0)' },
      'no-media': { type: 'boolean', help: 'send text only' },
      'dry-run': { type: 'boolean', help: 'send nothing, list what would be sent' },
    },
    run: (ctx, values) => {
      let options: ReturnType<typeof restoreArgs>;
      try {
        options = restoreArgs(values as RestoreFlags);
      } catch (error) {
        if (error instanceof RestoreUsageError) throw new UsageError(error.message);
        throw error;
      }
      return withStop(ctx, (o) => restoreChatCommand(options, ctx.env, ctx.io, o));
    },
  },
];
