// `npm run migrate -- archive`: the same as `archive-cli migrate` (DATABASE_URL / DB_TYPE / DATABASE_PATH ...,
// or their ARCHIVE_-prefixed forms).
import { migrateCommand } from '../../src/archive/commands';

process.exit(await migrateCommand(process.env));
