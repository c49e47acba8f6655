/**
 * The dispatcher of `archive-cli [--data-dir PATH] <command> ...`: global options, help, usage errors
 * (exit 2) and the command table. Returns the exit code; -1 means "keep running" (serve).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Env } from '../../common/env';
import { ConfigError } from '../../common/env';
import { createLogger } from '../../common/logger';
import { type CliIo, commandHelp, parseCommandArgs, UsageError, usageLine } from './command';
import { COMMANDS } from './commands';
import { logLevel } from './context';

const USAGE = 'usage: archive-cli [--data-dir PATH] <command>';

function unknownCommand(name: string): string {
  return `unknown command "${name}" (choose from ${COMMANDS.map((c) => c.name).join(', ')})`;
}

export function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    `${USAGE} ...`,
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'options:',
    '  --data-dir PATH   sets BACKUP_PATH to PATH/backups and SESSION_DIR to PATH/session (created);',
    '                    the database settings are not changed by it',
    '  -h, --help        show this help',
    '',
    "Run 'archive-cli <command> -h' for a command's flags.",
  ].join('\n');
}

function usage(io: CliIo, line: string, message: string): number {
  io.err(`${line}\narchive-cli: error: ${message}`);
  return 2;
}

export async function runCli(argv: string[], io: CliIo, processEnv: Env): Promise<number> {
  const env: Env = { ...processEnv };
  let i = 0;
  let dataDir: string | undefined;
  for (; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '-h' || arg === '--help') {
      io.out(mainHelp());
      return 0;
    }
    if (arg === '--data-dir' || arg.startsWith('--data-dir=')) {
      dataDir = arg.includes('=') ? arg.slice('--data-dir='.length) : argv[++i];
      if (!dataDir) return usage(io, USAGE, 'argument --data-dir: expected one argument');
      continue;
    }
    if (arg.startsWith('-')) {
      return usage(io, USAGE, `unrecognized arguments: ${arg}`);
    }
    break;
  }
  const name = argv[i];
  if (name === undefined) {
    io.out(mainHelp());
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) return usage(io, USAGE, unknownCommand(name));
  let parsed: ReturnType<typeof parseCommandArgs>;
  try {
    parsed = parseCommandArgs(command, argv.slice(i + 1));
  } catch (error) {
    if (error instanceof UsageError) return usage(io, usageLine(command), error.message);
    throw error;
  }
  if (parsed.help) {
    io.out(commandHelp(command));
    return 0;
  }
  if (dataDir !== undefined) {
    // The seed: BACKUP_PATH and SESSION_DIR under it, both created; the database settings stay as they are.
    const backups = path.resolve(dataDir, 'backups');
    const session = path.resolve(dataDir, 'session');
    mkdirSync(backups, { recursive: true });
    mkdirSync(session, { recursive: true });
    env.BACKUP_PATH = backups;
    env.SESSION_DIR = session;
    delete env.ARCHIVE_BACKUP_PATH;
    delete env.ARCHIVE_SESSION_DIR;
  }
  const logger = createLogger('archive', logLevel(env), { write: (chunk: string) => io.errWrite(chunk) });
  try {
    return await command.run({ env, io, logger }, parsed.values, parsed.positionals);
  } catch (error) {
    if (error instanceof UsageError) return usage(io, usageLine(command), error.message);
    if (error instanceof ConfigError) {
      io.err(`Configuration error: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
