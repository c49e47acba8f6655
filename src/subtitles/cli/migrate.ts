/** `migrate`: the database's pending migrations, by the common runner. */
import { defineCommand } from '../../common/cli/command';
import { migrationLabel } from '../../common/migrations';
import { loadConfig } from '../config';
import { databasePath, migrateFile } from '../store/sqlite';
import type { SubtitlesContext } from './context';

export const migrate = defineCommand<SubtitlesContext>()({
  name: 'migrate',
  summary: 'apply pending database migrations',
  options: {},
  async run(ctx) {
    const file = databasePath(loadConfig(ctx.env).dataDir);
    const applied = await migrateFile(file);
    ctx.out(
      applied.length === 0
        ? `${file}: up to date`
        : `${file}: applied ${applied.map(migrationLabel).join(', ')}`,
    );
    return 0;
  },
});
