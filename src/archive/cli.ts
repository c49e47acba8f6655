/**
 * `archive-cli` (also `npm run archive -- <command>`): `serve` (the viewer), `migrate`, and the commands
 * that reach the messaging platform (backup/cli-commands.ts).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from '../common/env';
import { BACKUP_CLI_COMMANDS, runBackupCli, stopSignal } from './backup/cli-commands';
import { processIo } from './backup/commands';
import { migrateCommand, serveCommand } from './commands';

const LISTED = [
  { name: 'serve', summary: 'run the viewer (HTTP API) on VIEWER_PORT (default 8000)' },
  { name: 'migrate', summary: 'upgrade the database schema to the newest revision' },
  ...BACKUP_CLI_COMMANDS,
];
const WIDTH = Math.max(...LISTED.map((c) => c.name.length)) + 2;

const USAGE = 'usage: archive-cli [--data-dir PATH] <command>';

const HELP = `${USAGE}

commands:
${LISTED.map((c) => `  ${c.name.padEnd(WIDTH)}${c.summary}`).join('\n')}

options:
  --data-dir PATH   sets BACKUP_PATH to PATH/backups and SESSION_DIR to PATH/session (created);
                    the database settings are not changed by it
  -h, --help        show this help`;

const COMMANDS = ['serve', 'migrate'] as const;

/** The seed's database-side commands, which this build does not have yet. */
const LATER_COMMANDS = new Set(['export', 'stats', 'status', 'list-chats', 'import', 'merge']);

/** The short usage and the error on stderr, exit 2 (the error line names what was wrong). */
function usage(message: string): never {
  console.error(`${USAGE}\narchive-cli: error: ${message}`);
  process.exit(2);
}

function unknownCommand(command: string): string {
  const choices = `choose from ${[...COMMANDS, ...BACKUP_CLI_COMMANDS.map((c) => c.name)].join(', ')}`;
  return LATER_COMMANDS.has(command)
    ? `command "${command}" is not available in this build (${choices})`
    : `unknown command "${command}" (${choices})`;
}

export async function main(argv: string[]): Promise<void> {
  // Global options come before the command; what follows the command is its own.
  const at = argv.findIndex((arg, i) => !arg.startsWith('-') && argv[i - 1] !== '--data-dir');
  const globals = at < 0 ? argv : argv.slice(0, at);
  const [command, ...rest] = at < 0 ? [] : argv.slice(at);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: globals,
      options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    usage(error instanceof Error ? error.message : String(error));
  }
  if (!command || parsed.values.help) {
    console.log(HELP);
    return;
  }
  const backup = BACKUP_CLI_COMMANDS.find((c) => c.name === command);
  if (!backup && !COMMANDS.includes(command as (typeof COMMANDS)[number])) usage(unknownCommand(command));
  if (!backup && rest.length > 0) usage(`unrecognized arguments: ${rest.join(' ')}`);
  const dataDir = parsed.values['data-dir'];
  if (typeof dataDir === 'string') {
    // The database settings stay as they are.
    const backups = path.resolve(dataDir, 'backups');
    const session = path.resolve(dataDir, 'session');
    mkdirSync(backups, { recursive: true });
    mkdirSync(session, { recursive: true });
    process.env.BACKUP_PATH = backups;
    process.env.SESSION_DIR = session;
  }
  try {
    if (backup) {
      const stop = stopSignal();
      try {
        process.exitCode = await runBackupCli(backup, rest, process.env, processIo, { signal: stop.signal });
      } finally {
        stop.dispose();
      }
    } else if (command === 'serve') await serveCommand();
    else process.exitCode = await migrateCommand();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

await main(process.argv.slice(2));
