// `npm run demo -- archive [--fixtures]`: migrates the configured archive database and fills it by running
// the real backup engine against the in-memory fake platform (two accounts, six chats, every media kind
// with real small files written under BACKUP_PATH, topics, folders, avatars, then edits, a deletion,
// reactions and a new avatar in a second run). `--fixtures` loads the static fixture archive instead
// (what the HTTP tests use: it adds transcripts, tags and viewer-side data the platform does not have).

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { loadBackupConfig } from '../../src/archive/backup/config';
import { demoPlatform, fillDemoArchive } from '../../src/archive/backup/demo-platform';
import type { MediaKind } from '../../src/archive/backup/platform';
import { FIXTURE, seedFixtures } from '../../src/archive/demo/dataset';
import { installFixtureFiles } from '../../src/archive/demo/files';
import { createArchiveStore } from '../../src/archive/store/archive-store';
import { backupState } from '../../src/archive/store/backup-state';
import { describeDatabase } from '../../src/archive/store/config';
import { migrateOpenStore } from '../../src/archive/store/migrate';
import { openDriver } from '../../src/archive/store/open';
import { ALL_VISIBLE } from '../../src/archive/store/store';
import { createLogger } from '../../src/common/logger';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Small real files of each kind, when the project ships them (demo/media). */
const FIXTURE_MEDIA = path.join(ROOT, 'src/archive/demo/media');
const FILE_OF: Partial<Record<MediaKind, string>> = {
  photo: 'photo.jpg',
  voice: 'voice.ogg',
  video: 'video.mp4',
  video_note: 'round.mp4',
  document: 'checklist.pdf',
  sticker: 'sticker.webp',
  animation: 'video.mp4',
  audio: 'voice.ogg',
};

async function fileBytes(): Promise<{ bytes: (kind: MediaKind) => Uint8Array; avatar: Uint8Array }> {
  const picture = (format: 'jpeg' | 'webp') =>
    sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 40, g: 120, b: 200 } } })
      [format]()
      .toBuffer();
  const generated: Partial<Record<MediaKind, Uint8Array>> = {
    photo: await picture('jpeg'),
    sticker: await picture('webp'),
  };
  const avatarFile = path.join(FIXTURE_MEDIA, 'chat-avatar.jpg');
  const avatar = existsSync(avatarFile) ? readFileSync(avatarFile) : await picture('jpeg');
  return {
    avatar,
    bytes: (kind) => {
      const file = FILE_OF[kind] && path.join(FIXTURE_MEDIA, FILE_OF[kind] as string);
      if (file && existsSync(file)) return readFileSync(file);
      return generated[kind] ?? Buffer.from(`demo ${kind} file\n`);
    },
  };
}

const logger = createLogger('archive', 'warn');
try {
  const config = loadBackupConfig(process.env);
  const driver = openDriver(config.database, logger);
  const db = createArchiveStore(driver);
  try {
    await migrateOpenStore(db, logger);
    const where = JSON.stringify(describeDatabase(config.database));
    if (await db.findChat(ALL_VISIBLE, FIXTURE.releaseCrew.ref)) {
      console.log('The demo archive is already loaded.');
    } else if (process.argv.includes('--fixtures')) {
      const summary = await seedFixtures(db);
      const files = await installFixtureFiles(config.backupPath);
      console.log(
        `Loaded the fixture archive into ${where}: ` +
          `${summary.accounts} accounts, ${summary.chats} chats, ${summary.messages} messages, ` +
          `${files} media files under ${config.backupPath}.`,
      );
    } else {
      const files = await fileBytes();
      const demo = demoPlatform(files.bytes, files.avatar);
      const runs = await fillDemoArchive({ config, store: db, state: backupState(driver), logger }, demo);
      const sum = (key: 'messages' | 'mediaDownloaded' | 'edits' | 'deletions') =>
        runs.flat().reduce((n, s) => n + s[key], 0);
      console.log(
        `Backed up the demo platform into ${where} with the backup engine (two runs): ` +
          `${sum('messages')} messages, ${sum('mediaDownloaded')} media files under ${config.backupPath}, ` +
          `${sum('edits')} edit(s), ${sum('deletions')} deletion(s).`,
      );
    }
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
