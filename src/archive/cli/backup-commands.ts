/**
 * The platform-bound commands (backup/cli-commands.ts) in the dispatcher's table: their flags declared for
 * help and usage errors, their run handing the parsed flags back to the command as arguments. Every run
 * gets a signal that SIGTERM and SIGINT abort (`schedule` finishes the current chat and exits 0).
 */
import { BACKUP_CLI_COMMANDS, runBackupCli, stopSignal } from '../backup/cli-commands';
import type { Command, OptionSpec, OptionValues } from './command';

const CHAT_ID: OptionSpec = { type: 'string', short: 'c', metavar: 'CHAT_ID', help: 'one platform chat id' };

const OPTIONS: Record<string, { options: Record<string, OptionSpec>; positionals?: Command['positionals'] }> =
  {
    auth: { options: {} },
    backup: { options: {} },
    schedule: { options: {} },
    'fill-gaps': {
      options: {
        'chat-id': CHAT_ID,
        threshold: {
          type: 'string',
          short: 't',
          metavar: 'THRESHOLD',
          help: 'minimum gap size (GAP_THRESHOLD, 50)',
        },
      },
    },
    'backfill-topics': { options: { 'chat-id': { ...CHAT_ID, required: true } } },
    'reclassify-round-videos': {
      options: { 'chat-id': CHAT_ID, 'dry-run': { type: 'boolean', help: 'change nothing, only count' } },
    },
    auth_noninteractive: {
      options: {},
      positionals: { names: ['{send,verify}', 'CODE', '2FA_PASSWORD'], min: 1 },
    },
    restore_chat: {
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
    },
  };

/** The parsed flags as the command's own arguments again (`--name=value`, so negative ids stay values). */
function asArgs(values: OptionValues, positionals: string[]): string[] {
  const args: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (value === true) args.push(`--${name}`);
    else if (typeof value === 'string') args.push(`--${name}=${value}`);
  }
  return [...args, ...positionals];
}

export const backupCommands: Command[] = BACKUP_CLI_COMMANDS.map((command) => ({
  name: command.name,
  summary: command.summary,
  options: OPTIONS[command.name]?.options ?? {},
  ...(OPTIONS[command.name]?.positionals && { positionals: OPTIONS[command.name]?.positionals }),
  async run(ctx, values, positionals) {
    const stop = stopSignal();
    try {
      return await runBackupCli(command, asArgs(values, positionals), ctx.env, ctx.io, {
        signal: stop.signal,
        logger: ctx.logger,
      });
    } finally {
      stop.dispose();
    }
  },
}));
