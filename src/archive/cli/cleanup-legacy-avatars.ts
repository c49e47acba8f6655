/**
 * `cleanup-legacy-avatars [--dry-run] [--backup-path PATH]`: avatar files under `media/avatars` that no
 * avatar history row points at (left by older layouts) are deleted.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Command } from './command';
import { DRY_RUN, maintenancePass } from './maintenance';

export const cleanupLegacyAvatars: Command = {
  name: 'cleanup-legacy-avatars',
  summary: 'delete avatar files no avatar history row refers to',
  options: {
    ...DRY_RUN,
    'backup-path': { type: 'string', metavar: 'PATH', help: 'the backup folder (default /data/backups)' },
  },
  run: (ctx, values) =>
    maintenancePass(ctx, values, 'Legacy avatar cleanup', async (db, dryRun) => {
      const backup = typeof values['backup-path'] === 'string' ? values['backup-path'] : '/data/backups';
      const dir = path.join(backup, 'media', 'avatars');
      const referenced = new Set((await db.listAvatarFiles()).map((f) => path.posix.normalize(f)));
      const stale = existsSync(dir)
        ? readdirSync(dir).filter((name) => !referenced.has(path.posix.join('avatars', name)))
        : [];
      if (!dryRun) for (const name of stale) rmSync(path.join(dir, name), { force: true, recursive: true });
      return [`Avatar files removed: ${stale.length}`];
    }),
};
