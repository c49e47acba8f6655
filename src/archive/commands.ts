/** The command line's commands, callable from the CLI and from `npm run migrate -- archive`. */
import type { Env } from '../common/env';
import { createLogger } from '../common/logger';
import { closeOnSignals } from '../common/serve';
import { loadDatabaseConfig } from './config';
import { start } from './main';
import { migrateArchive } from './store/migrate';

export async function serveCommand(env?: Env): Promise<void> {
  const viewer = await start(env);
  closeOnSignals(createLogger('archive'), viewer.close);
}

/** Prints the seed's lines; returns the exit code. */
export async function migrateCommand(env?: Env): Promise<number> {
  try {
    const config = loadDatabaseConfig(env);
    // The seed: LOG_LEVEL applies to every command except migrate; its progress goes to stderr.
    await migrateArchive(config, createLogger('archive', 'info', process.stderr as never));
    console.log('Database schema is up to date.');
    return 0;
  } catch (error) {
    console.error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
