// `npm run migrate -- fuel`: applies the fuel store's pending migrations (DATABASE_URL / DATA_DIR).
import { ConfigError } from '../../src/common/env';
import { migrateCommand } from '../../src/fuel/cli/migrate';

try {
  await migrateCommand(process.env);
} catch (error) {
  console.error(error instanceof ConfigError ? `fuel: ${error.message}` : error);
  process.exit(1);
}
