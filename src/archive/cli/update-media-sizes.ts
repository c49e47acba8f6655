/**
 * `update-media-sizes [--dry-run] [--force]`: file sizes of downloaded media read from the files under
 * the media directory; only where missing unless `--force`.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { defineCommand } from '../../common/cli/command';
import { mediaRoot } from './context';
import { DRY_RUN, maintenancePass } from './maintenance';

export const updateMediaSizes = defineCommand()({
  name: 'update-media-sizes',
  summary: 'fill in media file sizes from the files (--force: all of them)',
  options: { ...DRY_RUN, force: { type: 'boolean', help: 'recompute sizes that are already set' } },
  run: (ctx, values) =>
    maintenancePass(ctx, values, 'Media size update', async (db, dryRun) => {
      const root = mediaRoot(ctx.env);
      const updates: { accountId: number; id: string; filePath: string; size: number }[] = [];
      let missing = 0;
      for (const m of await db.listMediaFiles()) {
        if (!m.downloaded || !m.filePath || (m.fileSize !== null && values.force !== true)) continue;
        try {
          const size = statSync(path.join(root, m.filePath)).size;
          if (size !== m.fileSize)
            updates.push({ accountId: m.accountId, id: m.id, filePath: m.filePath, size });
        } catch {
          missing++;
        }
      }
      if (!dryRun) {
        await db.maintenanceTransaction(async (w) => {
          for (const u of updates) await w.setMediaFile(u, { filePath: u.filePath, fileSize: u.size });
        });
      }
      return [`Sizes updated: ${updates.length}`, `Files missing: ${missing}`];
    }),
});
