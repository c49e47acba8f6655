// `npm run migrate -- archive`: the same as `archive-cli migrate` (DATABASE_URL / DB_TYPE / DATABASE_PATH ...,
// or their ARCHIVE_-prefixed forms).
import { runCli } from '../../src/archive/cli/run';

const code = await runCli(
  ['migrate'],
  {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    errWrite: (chunk) => process.stderr.write(chunk),
  },
  process.env,
);
process.exit(code);
