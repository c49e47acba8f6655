/**
 * `migrate-media-paths [--dry-run] [--media-path PATH] [--db-url URL]`: media and avatar paths stored
 * absolute (under the media directory) or with a leading `media/` become relative to the media
 * directory, as the viewer reads them.
 */
import path from 'node:path';
import { defineCommand } from '../../common/cli/command';
import { mediaRoot } from './context';
import { DRY_RUN, maintenancePass } from './maintenance';

/**
 * The stored path relative to the media folder, or null when it is so already. A shared file's place,
 * `media/_shared/<2 hex>/<sha256>` (model/media-layout.ts), is such a path and is kept as it is: only its
 * absolute spelling is shortened to it (stripping its `media/` had pointed every row that
 * deduplicate-media had moved there at a folder that does not exist).
 */
export function relativeMediaPath(stored: string, root: string): string | null {
  const prefixes = [
    `${path.resolve(root)}/`,
    `${path.resolve(root).replace(/\/media$/, '')}/media/`,
    'media/',
    './media/',
  ];
  for (const prefix of prefixes) {
    if (!stored.startsWith(prefix)) continue;
    const rest = stored.slice(prefix.length);
    const relative = rest.startsWith(SHARED) ? `media/${rest}` : rest;
    return relative === stored ? null : relative;
  }
  return null;
}

const SHARED = '_shared/';

export const migrateMediaPaths = defineCommand()({
  name: 'migrate-media-paths',
  summary: 'rewrite absolute or media/-prefixed media paths as paths relative to the media folder',
  options: {
    ...DRY_RUN,
    'media-path': { type: 'string', metavar: 'PATH', help: 'the media folder (default BACKUP_PATH/media)' },
    'db-url': { type: 'string', metavar: 'URL', help: 'the database (default: the configured one)' },
  },
  run: (ctx, values) => {
    const env =
      typeof values['db-url'] === 'string' ? { ...ctx.env, DATABASE_URL: values['db-url'] } : ctx.env;
    return maintenancePass({ ...ctx, env }, values, 'Media path migration', async (db, dryRun) => {
      const root = typeof values['media-path'] === 'string' ? values['media-path'] : mediaRoot(ctx.env);
      const media = (await db.listMediaFiles())
        .map((m) => ({ m, to: m.filePath ? relativeMediaPath(m.filePath, root) : null }))
        .filter((x) => x.to !== null);
      const avatars = (await db.listAvatarFiles())
        .map((from) => ({ from, to: relativeMediaPath(from, root) }))
        .filter((x) => x.to !== null);
      if (!dryRun) {
        await db.maintenanceTransaction(async (w) => {
          for (const { m, to } of media) await w.setMediaFile(m, { filePath: to });
          for (const { from, to } of avatars) await w.setAvatarPath(from, to as string);
        });
      }
      return [`Media paths rewritten: ${media.length}`, `Avatar paths rewritten: ${avatars.length}`];
    });
  },
});
