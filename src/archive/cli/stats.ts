/** `stats`: the banner of cached figures (all 0 until they were first calculated) and when they were. */

import { defineCommand, errorText } from '../../common/cli/command';
import { ALL_VISIBLE } from '../store/store';
import { openDatabase } from './context';

const RULE = '='.repeat(50);

export const stats = defineCommand()({
  name: 'stats',
  summary: 'print the archive statistics (cached figures)',
  options: {},
  async run(ctx) {
    try {
      const db = await openDatabase(ctx.env, ctx.logger, { readonly: true });
      try {
        const figures = await db.getArchiveFigures(ALL_VISIBLE);
        ctx.io.out(
          [
            RULE,
            'Archive Statistics',
            RULE,
            `Total chats: ${figures.chats}`,
            `Total messages: ${figures.messages}`,
            `Media files: ${figures.media_files}`,
            `Total storage: ${figures.total_size_mb.toFixed(2)} MB`,
            `Calculated at: ${figures.stats_calculated_at ?? 'never (a backup, an import, a merge or the viewer calculates them)'}`,
            RULE,
          ].join('\n'),
        );
        return 0;
      } finally {
        await db.close();
      }
    } catch (error) {
      ctx.io.err(`Stats failed: ${errorText(error)}`);
      return 1;
    }
  },
});
