/**
 * `deduplicate-media [--dry-run] [-v]`: downloaded files with the same content (SHA-256) are kept once,
 * under `_shared/<first 2 hex>/<sha256>` in the media directory; every row points there and the copies
 * are removed after the rows are committed.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { defineCommand } from '../../common/cli/command';
import { sha256File, sharedMediaPath } from '../importers/media-files';
import type { MediaFileRow } from '../store/store';
import { mediaRoot } from './context';
import { DRY_RUN, maintenancePass } from './maintenance';

export const deduplicateMedia = defineCommand()({
  name: 'deduplicate-media',
  summary: 'keep identical media files once, under _shared/<2 hex>/<sha256>',
  options: { ...DRY_RUN, verbose: { type: 'boolean', short: 'v', help: 'log each duplicate group' } },
  run: (ctx, values) =>
    maintenancePass(ctx, values, 'Media deduplication', async (db, dryRun) => {
      const root = mediaRoot(ctx.env);
      const groups = new Map<string, MediaFileRow[]>();
      for (const m of await db.listMediaFiles()) {
        if (!m.downloaded || !m.filePath || !existsSync(path.join(root, m.filePath))) continue;
        const hash = m.contentHash ?? (await sha256File(path.join(root, m.filePath)));
        groups.set(hash, [...(groups.get(hash) ?? []), { ...m, contentHash: hash }]);
      }
      const duplicated = [...groups].filter(([, rows]) => new Set(rows.map((r) => r.filePath)).size > 1);
      let removed = 0;
      const toRemove: string[] = [];
      for (const [hash, rows] of duplicated) {
        const shared = sharedMediaPath(hash);
        const files = [...new Set(rows.map((r) => r.filePath as string))].filter((f) => f !== shared);
        removed += files.length - (existsSync(path.join(root, shared)) ? 0 : 1);
        if (values.verbose === true) ctx.logger.info({ files: files.length }, 'duplicate group');
        if (dryRun) continue;
        if (!existsSync(path.join(root, shared))) {
          mkdirSync(path.dirname(path.join(root, shared)), { recursive: true });
          renameSync(path.join(root, files[0] as string), path.join(root, shared));
          toRemove.push(...files.slice(1));
        } else {
          toRemove.push(...files);
        }
      }
      if (!dryRun) {
        await db.maintenanceTransaction(async (w) => {
          for (const [hash, rows] of duplicated) {
            for (const r of rows)
              await w.setMediaFile(r, { filePath: sharedMediaPath(hash), contentHash: hash });
          }
        });
        for (const file of toRemove) rmSync(path.join(root, file), { force: true });
      }
      return [`Duplicate groups: ${duplicated.length}`, `Files removed: ${removed}`];
    }),
});
