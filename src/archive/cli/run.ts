/**
 * `archive-cli [--data-dir PATH] <command> ...`: the archive's program for the common command-line kit
 * (src/common/cli): its command table, the global `--data-dir`, and the context each command runs with.
 * Returns the exit code; -1 means "keep running" (serve).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type CliIo, type CommandContext, UsageError } from '../../common/cli/command';
import { type Program, runProgram } from '../../common/cli/program';
import type { Env } from '../../common/env';
import { createLogger } from '../../common/logger';
import { COMMANDS } from './commands';
import { logLevel } from './context';

function archiveProgram(processEnv: Env, io: CliIo): Program<CommandContext> {
  return {
    name: 'archive-cli',
    label: 'archive-cli',
    usage: 'usage: archive-cli [--data-dir PATH] <command>',
    commands: COMMANDS,
    helpTail: [
      'options:',
      '  --data-dir PATH   sets BACKUP_PATH to PATH/backups and SESSION_DIR to PATH/session (created);',
      '                    the database settings are not changed by it',
      '  -h, --help        show this help',
    ],
    globals(argv) {
      const options: Record<string, string> = {};
      let i = 0;
      for (; i < argv.length; i++) {
        const arg = argv[i] as string;
        if (arg === '--data-dir' || arg.startsWith('--data-dir=')) {
          const value = arg.includes('=') ? arg.slice('--data-dir='.length) : argv[++i];
          if (!value) throw new UsageError('argument --data-dir: expected one argument');
          options.dataDir = value;
          continue;
        }
        if (arg.startsWith('-') && arg !== '-h' && arg !== '--help') {
          throw new UsageError(`unrecognized arguments: ${arg}`);
        }
        break;
      }
      return { rest: argv.slice(i), options };
    },
    context({ dataDir }) {
      const env: Env = { ...processEnv };
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
      return { env, io, logger };
    },
    configurationError: (error) => `Configuration error: ${error.message}`,
  };
}

export function runCli(argv: string[], io: CliIo, processEnv: Env): Promise<number> {
  return runProgram(archiveProgram(processEnv, io), argv, io);
}
