// `npm run demo -- archive`: migrates the configured archive database and loads the fixture archive
// (two accounts, six chats with edits, a deletion, pins, reactions, media, a transcript and tags), and
// puts its media files (photo, voice note, video, round video, PDF, sticker, avatars) under BACKUP_PATH.

import { loadConfig } from '../../src/archive/config';
import { describeDatabase, parseDatabaseConfig } from '../../src/archive/store/config';
import { installFixtureFiles } from '../../src/archive/store/fixture-files';
import { FIXTURE, seedFixtures } from '../../src/archive/store/fixtures';
import { migrateOpenStore } from '../../src/archive/store/migrate';
import { openArchiveStore } from '../../src/archive/store/open';
import { ALL_VISIBLE } from '../../src/archive/store/store';
import { scopedEnv } from '../../src/common/env';
import { createLogger } from '../../src/common/logger';

const logger = createLogger('archive', 'warn');
try {
  const config = parseDatabaseConfig(scopedEnv(process.env, 'ARCHIVE_'));
  const db = await openArchiveStore(config, logger);
  try {
    await migrateOpenStore(db, logger);
    if (await db.findChat(ALL_VISIBLE, FIXTURE.releaseCrew.ref)) {
      console.log('The demo archive is already loaded.');
    } else {
      const summary = await seedFixtures(db);
      console.log(
        `Loaded the demo archive into ${JSON.stringify(describeDatabase(config))}: ` +
          `${summary.accounts} accounts, ${summary.chats} chats, ${summary.messages} messages.`,
      );
    }
    const { backupPath } = loadConfig(process.env).media;
    const files = await installFixtureFiles(backupPath);
    console.log(`Placed ${files} media files under ${backupPath} (BACKUP_PATH).`);
    console.log(
      `Try: curl -b viewer_auth=<cookie> localhost:8000/api/chats/${FIXTURE.releaseCrew.ref}/messages`,
    );
  } finally {
    await db.close();
  }
} catch (err) {
  console.error(`Demo failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
