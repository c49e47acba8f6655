/**
 * `detect-albums [--dry-run] [--window SECONDS]`: photos and videos of one sender in one chat sent
 * within the window of each other (default 2 s) and not yet grouped become one album: they share a
 * `grouped_id` in raw_data (the first message's id, prefixed `album_`).
 */

import { defineCommand, numberOption } from '../../common/cli/command';
import type { MediaMessageRow } from '../store/store';
import { DRY_RUN, maintenancePass } from './maintenance';

export function findAlbums(rows: MediaMessageRow[], windowSeconds: number): MediaMessageRow[][] {
  const albums: MediaMessageRow[][] = [];
  let current: MediaMessageRow[] = [];
  const close = () => {
    if (current.length > 1) albums.push(current);
    current = [];
  };
  for (const row of rows) {
    const last = current[current.length - 1];
    const grouped = row.raw?.grouped_id !== undefined && row.raw?.grouped_id !== null;
    if (
      last &&
      !grouped &&
      last.accountId === row.accountId &&
      last.chatId === row.chatId &&
      last.senderId === row.senderId &&
      row.date.getTime() - last.date.getTime() <= windowSeconds * 1000
    ) {
      current.push(row);
      continue;
    }
    close();
    if (!grouped) current = [row];
  }
  close();
  return albums;
}

export const detectAlbums = defineCommand()({
  name: 'detect-albums',
  summary: 'group photos and videos sent together into albums (grouped_id)',
  options: {
    ...DRY_RUN,
    window: { type: 'string', metavar: 'SECONDS', help: 'largest gap inside an album (default 2)' },
  },
  run: (ctx, values) =>
    maintenancePass(ctx, values, 'Album detection', async (db, dryRun) => {
      const window = numberOption(values, 'window', 2);
      const albums = findAlbums(await db.listAlbumCandidates(), window);
      if (!dryRun) {
        await db.maintenanceTransaction(async (w) => {
          for (const album of albums) {
            const groupedId = `album_${album[0]?.chatId}_${album[0]?.id}`;
            for (const m of album) await w.setRawData(m, { ...(m.raw ?? {}), grouped_id: groupedId });
          }
        });
      }
      return [
        `Albums found: ${albums.length}`,
        `Messages grouped: ${albums.reduce((n, a) => n + a.length, 0)}`,
      ];
    }),
});
