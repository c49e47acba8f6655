/**
 * `archive-cli` (also `npm run archive -- <command>`). This build has `serve` (the viewer) and `migrate`;
 * the backup commands arrive with the backup work.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from '../common/env';
import { migrateCommand, serveCommand } from './commands';

const USAGE = 'usage: archive-cli [--data-dir PATH] <command>';

const HELP = `${USAGE}

commands:
  serve     run the viewer (HTTP API) on VIEWER_PORT (default 8000)
  migrate   upgrade the database schema to the newest revision

options:
  --data-dir PATH   sets BACKUP_PATH to PATH/backups and SESSION_DIR to PATH/session (created);
                    the database settings are not changed by it
  -h, --help        show this help`;

const COMMANDS = ['serve', 'migrate'] as const;

/** The seed's commands that need the backup work, which this build does not have yet. */
const LATER_COMMANDS = new Set([
  'auth',
  'backup',
  'schedule',
  'fill-gaps',
  'backfill-topics',
  'reclassify-round-videos',
  'export',
  'stats',
  'status',
  'list-chats',
  'import',
  'merge',
]);

/** The short usage and the error on stderr, exit 2 (the error line names what was wrong). */
function usage(message: string): never {
  console.error(`${USAGE}\narchive-cli: error: ${message}`);
  process.exit(2);
}

function unknownCommand(command: string): string {
  const choices = `choose from ${COMMANDS.join(', ')}`;
  return LATER_COMMANDS.has(command)
    ? `command "${command}" is not available in this build (${choices})`
    : `unknown command "${command}" (${choices})`;
}

export async function main(argv: string[]): Promise<void> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    usage(error instanceof Error ? error.message : String(error));
  }
  const [command, ...rest] = parsed.positionals;
  if (!command || parsed.values.help) {
    console.log(HELP);
    return;
  }
  if (!COMMANDS.includes(command as (typeof COMMANDS)[number])) usage(unknownCommand(command));
  if (rest.length > 0) usage(`unrecognized arguments: ${rest.join(' ')}`);
  const dataDir = parsed.values['data-dir'];
  if (typeof dataDir === 'string') {
    // The backup commands of later work read these; the database settings stay as they are.
    const backups = path.join(dataDir, 'backups');
    const session = path.join(dataDir, 'session');
    mkdirSync(backups, { recursive: true });
    mkdirSync(session, { recursive: true });
    process.env.BACKUP_PATH = backups;
    process.env.SESSION_DIR = session;
  }
  try {
    if (command === 'serve') await serveCommand();
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
