/** The fuel command line's commands, as functions the CLI and the scripts share. */
import type { Env } from '../common/env';
import { closeOnSignals } from '../common/serve';
import { loadFuelConfig } from './config';
import { start } from './main';
import { describeLocation, migrateDatabase } from './store/open';

export async function serveCommand(env: Env): Promise<void> {
  const running = await start(env);
  closeOnSignals(running.logger, running.close);
}

export async function migrateCommand(env: Env, print: (line: string) => void = console.log): Promise<void> {
  const { database } = loadFuelConfig(env);
  const applied = await migrateDatabase(database);
  const where = describeLocation(database);
  if (applied.length === 0) print(`fuel: ${where} is up to date`);
  for (const m of applied)
    print(`fuel: applied migration ${String(m.version).padStart(3, '0')}_${m.name} to ${where}`);
}
