// `npm run migrate -- subtitles`: the same as `npm run subtitles -- migrate` (<data>/subtitles.db).

import { runCli } from '../../src/subtitles/cli/program';
import { processEnv } from '../../src/subtitles/config';

const code = await runCli(['migrate'], processEnv(), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
process.exit(code);
