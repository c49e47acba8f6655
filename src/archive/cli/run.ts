/**
 * `archive-cli [--data-dir PATH] <command> ...`: the archive's program for the common command-line kit
 * (src/common/cli): its command table, the global `--data-dir`, and the context each command runs with.
 * Returns the exit code; -1 means "keep running" (serve).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { CliIo, CommandContext } from '../../common/cli/command';
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
    globalOptions: {
      'data-dir': {
        type: 'string',
        metavar: 'PATH',
        help: 'sets BACKUP_PATH to PATH/backups and SESSION_DIR to PATH/session (created);\nthe database settings are not changed by it',
      },
    },
    context({ 'data-dir': dataDir }) {
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
