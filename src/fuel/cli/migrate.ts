/** `migrate`: the pending migrations of the configured store, a line each (also `npm run migrate -- fuel`). */
import { defineCommand } from '../../common/cli/command';
import type { Env } from '../../common/env';
import { loadFuelConfig } from '../config';
import { describeLocation, migrateDatabase } from '../store/open';

export async function migrateCommand(env: Env, print: (line: string) => void = console.log): Promise<void> {
  const { database } = loadFuelConfig(env);
  const applied = await migrateDatabase(database);
  const where = describeLocation(database);
  if (applied.length === 0) print(`fuel: ${where} is up to date`);
  for (const m of applied)
    print(`fuel: applied migration ${String(m.version).padStart(3, '0')}_${m.name} to ${where}`);
}

export const migrate = defineCommand()({
  name: 'migrate',
  summary: 'apply pending database migrations',
  options: {},
  run: async (ctx) => {
    await migrateCommand(ctx.env, (line) => ctx.io.out(line));
    return 0;
  },
});
