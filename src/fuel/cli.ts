/**
 * `npm run fuel -- <command>` (also the `fuel` bin) on the common command-line kit (src/common/cli), one
 * file per command under fuel/cli:
 *   serve                 start the HTTP server (migrating the store first)
 *   migrate               apply pending database migrations
 *   scrape --country=ES   run scrapers once (`npm run scrape -- --country=ES`)
 */
import type { CommandContext } from '../common/cli/command';
import { processIo } from '../common/cli/command';
import { runProgram } from '../common/cli/program';
import { privateFileModes } from '../common/file-modes';
import { createLogger, logLevelVar } from '../common/logger';
import { migrate } from './cli/migrate';
import { scrape } from './cli/scrape';
import { serve } from './cli/serve';

privateFileModes();

const code = await runProgram<CommandContext>(
  {
    name: 'npm run fuel --',
    label: 'fuel',
    usage: 'usage: npm run fuel -- <command>',
    commands: [serve, migrate, scrape],
    context: () => ({
      env: process.env,
      io: processIo,
      logger: createLogger('fuel', logLevelVar(process.env, { unknown: 'info' })),
    }),
  },
  process.argv.slice(2),
  processIo,
);
if (code >= 0) process.exitCode = code;
