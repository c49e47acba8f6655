/**
 * `archive-cli` (also `npm run archive -- <command>`): the viewer, migrations and the database-side
 * commands and scripts. The dispatcher is cli/run.ts; each command is a file under cli/.
 */
import { processIo } from '../common/cli/command';
import { privateFileModes } from '../common/file-modes';
import { runCli } from './cli/run';

privateFileModes();

const code = await runCli(process.argv.slice(2), processIo, process.env);
if (code >= 0) process.exitCode = code;
