/**
 * `generate-dummy-db [--data-dir DIR] [--force]`: a demo archive to try the viewer with: DIR/archive.db
 * (SQLite, migrated) holding the fixture archive, and real media files under DIR/backups/media (JPEG
 * images drawn here, an Ogg voice note from the import fixtures). Refuses to replace an existing
 * database without `--force`.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { seedFixtures } from '../store/fixtures';
import { migrateOpenStore } from '../store/migrate';
import { openArchiveStore } from '../store/open';
import { type Command, errorText } from './command';
import { FIXTURES_DIR } from './fixtures-dir';

async function drawJpeg(file: string, width: number, height: number, hue: number): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const { default: sharp } = await import('sharp');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},70%,55%)"/><stop offset="1" stop-color="hsl(${hue + 60},70%,35%)"/>
    </linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
  await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toFile(file);
}

export const generateDummyDb: Command = {
  name: 'generate-dummy-db',
  summary: 'write a demo archive (database and real media files) to try the viewer with',
  options: {
    'data-dir': { type: 'string', metavar: 'DIR', help: 'where to write it (default ./data)' },
    force: { type: 'boolean', help: 'replace an existing demo database' },
  },
  async run(ctx, values) {
    const dir = path.resolve(typeof values['data-dir'] === 'string' ? values['data-dir'] : './data');
    const file = path.join(dir, 'archive.db');
    const media = path.join(dir, 'backups', 'media');
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
        let hue = 10;
        for (const m of await db.listMediaFiles()) {
          if (!m.filePath) continue;
          const target = path.join(media, m.filePath);
          if (m.type === 'photo') {
            hue += 70;
            await drawJpeg(target, 640, 480, hue);
          } else if (m.type === 'voice') {
            mkdirSync(path.dirname(target), { recursive: true });
            copyFileSync(
              path.join(FIXTURES_DIR, 'tg2md-channel/voice_messages/audio_1@12-11-2020_13-01-05.ogg'),
              target,
            );
          } else continue;
          await db.maintenanceTransaction((w) =>
            w.setMediaFile(m, { filePath: m.filePath, fileSize: statSync(target).size }),
          );
        }
        for (const avatar of await db.listAvatarFiles())
          await drawJpeg(path.join(media, avatar), 320, 320, 200);
        await db.refreshArchiveFigures();
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
};
