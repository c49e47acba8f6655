/** What the maintenance scripts share: the database (read-only for a dry run) and the summary line. */

import { type CommandContext, errorText, type OptionValues } from '../../common/cli/command';
import type { ArchiveDatabase } from '../store/store';
import { openDatabase } from './context';

/** Opens the archive, runs the pass and prints its lines; 'Failed: <error>' with exit 1 otherwise. */
export async function maintenancePass(
  ctx: CommandContext,
  values: OptionValues,
  title: string,
  pass: (db: ArchiveDatabase, dryRun: boolean) => Promise<string[]>,
): Promise<number> {
  const dryRun = values['dry-run'] === true;
  try {
    const db = await openDatabase(ctx.env, ctx.logger, { readonly: dryRun });
    try {
      const lines = await pass(db, dryRun);
      ctx.io.out(
        [`${dryRun ? '[DRY RUN] ' : ''}${title} complete:`, ...lines.map((l) => `  ${l}`)].join('\n'),
      );
      return 0;
    } finally {
      await db.close();
    }
  } catch (error) {
    ctx.io.err(`${title} failed: ${errorText(error)}`);
    return 1;
  }
}

export const DRY_RUN = {
  'dry-run': { type: 'boolean' as const, help: 'report what would change, change nothing' },
};
