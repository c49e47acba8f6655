// `npm run migrate -- subtitles`: the same as `npm run subtitles -- migrate` (<data>/subtitles.db).

import { processIo } from '../../src/common/cli/command';
import { runCli } from '../../src/subtitles/cli/program';
import { processEnv } from '../../src/subtitles/config';

const code = await runCli(['migrate'], processEnv(), processIo);
process.exit(code);
