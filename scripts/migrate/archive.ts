// `npm run migrate -- archive`: the same as `archive-cli migrate` (DATABASE_URL / DB_TYPE / DATABASE_PATH ...,
// or their ARCHIVE_-prefixed forms).
import { runCli } from '../../src/archive/cli/run';
import { processIo } from '../../src/common/cli/command';

const code = await runCli(['migrate'], processIo, process.env);
process.exit(code);
