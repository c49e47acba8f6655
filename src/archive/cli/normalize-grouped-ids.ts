/**
 * `normalize-grouped-ids [--dry-run]`: raw_data `grouped_id` values stored as JSON numbers become
 * strings (64-bit album ids do not fit a double), so every album compares the same way.
 */
import { defineCommand } from '../../common/cli/command';
import { DRY_RUN, maintenancePass } from './maintenance';

export const normalizeGroupedIds = defineCommand()({
  name: 'normalize-grouped-ids',
  summary: 'store every album grouped_id as a string',
  options: { ...DRY_RUN },
  run: (ctx, values) =>
    maintenancePass(ctx, values, 'Grouped-id normalisation', async (db, dryRun) => {
      const rows = (await db.listMessagesWithGroupedId()).filter(
        (m) => typeof m.raw?.grouped_id === 'number',
      );
      if (!dryRun) {
        await db.maintenanceTransaction(async (w) => {
          for (const m of rows)
            await w.setRawData(m, { ...(m.raw ?? {}), grouped_id: String(m.raw?.grouped_id) });
        });
      }
      return [`Messages normalised: ${rows.length}`];
    }),
});
