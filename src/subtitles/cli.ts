// `npm run subtitles -- <command>` (also the `subtitles` package bin).
import { processIo } from '../common/cli/command';
import { privateFileModes } from '../common/file-modes';
import { createLogger } from '../common/logger';
import { closeOnSignals } from '../common/serve';
import { runCli } from './cli/program';
import { processEnv } from './config';

privateFileModes();

let serving = false;
const code = await runCli(process.argv.slice(2), processEnv(), processIo, {
  onServing: (server) => {
    serving = true;
    closeOnSignals(createLogger('subtitles'), server.close);
  },
});
if (!serving || code !== 0) process.exit(code);
