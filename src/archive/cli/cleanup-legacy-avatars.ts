/**
 * `cleanup-legacy-avatars [--dry-run] [--backup-path PATH]`: avatar files lying directly in
 * `avatars/` under the backup folder that no avatar history row points at (left by older layouts; today's
 * layout keeps them under `avatars/chats/` and `avatars/users/`) are deleted.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { defineCommand } from '../../common/cli/command';
import { mediaRoot } from './context';
import { DRY_RUN, maintenancePass } from './maintenance';

export const cleanupLegacyAvatars = defineCommand()({
  name: 'cleanup-legacy-avatars',
  summary: 'delete avatar files no avatar history row refers to',
  options: {
    ...DRY_RUN,
    'backup-path': {
      type: 'string',
      metavar: 'PATH',
      help: 'the backup folder (default: the media folder, MEDIA_PATH or BACKUP_PATH or DATA_DIR/backups)',
    },
  },
  run: (ctx, values) =>
    maintenancePass(ctx, values, 'Legacy avatar cleanup', async (db, dryRun) => {
      const backup = typeof values['backup-path'] === 'string' ? values['backup-path'] : mediaRoot(ctx.env);
      const dir = path.join(backup, 'avatars');
      const referenced = new Set((await db.listAvatarFiles()).map((f) => path.posix.normalize(f)));
      const stale = existsSync(dir)
        ? readdirSync(dir, { withFileTypes: true })
            .filter((entry) => entry.isFile() && !referenced.has(path.posix.join('avatars', entry.name)))
            .map((entry) => entry.name)
        : [];
      if (!dryRun) for (const name of stale) rmSync(path.join(dir, name), { force: true, recursive: true });
      return [`Avatar files removed: ${stale.length}`];
    }),
});
