/** `migrate`: the schema to the newest revision, in the seed's words. */

import { defineCommand, errorText } from '../../common/cli/command';
import { createLogger } from '../../common/logger';
import { migrateArchive } from '../store/migrate';
import { databaseConfig } from './context';

export const migrate = defineCommand()({
  name: 'migrate',
  summary: 'upgrade the database schema to the newest revision',
  options: {},
  async run(ctx) {
    try {
      // LOG_LEVEL applies to every command except migrate: its progress is logged at INFO, on stderr.
      const logger = createLogger('archive', 'info', { write: (chunk: string) => ctx.io.errWrite(chunk) });
      await migrateArchive(databaseConfig(ctx.env), logger);
      ctx.io.out('Database schema is up to date.');
      return 0;
    } catch (error) {
      ctx.io.err(`Migration failed: ${errorText(error)}`);
      return 1;
    }
  },
});
