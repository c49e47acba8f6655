/**
 * `generate-dummy-db [--data-dir DIR] [--force]`: a demo archive to try the viewer with: DIR/archive.db
 * (SQLite, migrated) holding the fixture archive, and its real media files under DIR/backups in the media
 * layout (the same files `npm run demo -- archive` and the tests use). Refuses to replace an existing
 * database without `--force`.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { defineCommand, errorText } from '../../common/cli/command';
import { seedFixtures } from '../demo/dataset';
import { installFixtureFiles } from '../demo/files';
import { migrateOpenStore } from '../store/migrate';
import { openArchiveStore } from '../store/open';

export const generateDummyDb = defineCommand()({
  name: 'generate-dummy-db',
  summary: 'write a demo archive (database and real media files) to try the viewer with',
  options: {
    'data-dir': { type: 'string', metavar: 'DIR', help: 'where to write it (default ./data)' },
    force: { type: 'boolean', help: 'replace an existing demo database' },
  },
  async run(ctx, values) {
    const dir = path.resolve(typeof values['data-dir'] === 'string' ? values['data-dir'] : './data');
    const file = path.join(dir, 'archive.db');
    const media = path.join(dir, 'backups');
    try {
      if (existsSync(file)) {
        if (values.force !== true) {
          ctx.io.err(`Refusing to overwrite ${file}; pass --force to replace it.`);
          return 1;
        }
        for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
      }
      mkdirSync(dir, { recursive: true });
      const db = await openArchiveStore(
        { backend: 'sqlite', path: file, timeoutSeconds: 60, echo: false },
        ctx.logger,
      );
      let summary: Awaited<ReturnType<typeof seedFixtures>>;
      try {
        await migrateOpenStore(db, ctx.logger);
        summary = await seedFixtures(db);
        await installFixtureFiles(media);
        await db.finishBulkWrite();
      } finally {
        await db.close();
      }
      ctx.io.out(
        `Demo archive written to ${file}: ${summary.accounts} accounts, ${summary.chats} chats, ${summary.messages} messages; media under ${media}.`,
      );
      return 0;
    } catch (error) {
      ctx.io.err(`Demo archive failed: ${errorText(error)}`);
      return 1;
    }
  },
});
