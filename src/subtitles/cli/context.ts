/** What the subtitles commands share: their context and the database they open. */
import type { Env } from '../../common/env';
import { loadConfig } from '../config';
import type { Probe } from '../domain/probe';
import { databasePath, openSqliteStore } from '../store/sqlite';

/** What a subtitles command runs with (cli/program.ts makes it). */
export interface SubtitlesContext {
  env: Env;
  /** One line each (the newline is added). */
  out(line: string): void;
  err(line: string): void;
  options: CliOptions;
}

export interface CliOptions {
  probe?: Probe;
  /** `serve` resolves once the server listens and hands it over here. */
  onServing?: (server: { url: string; close(): Promise<void> }) => void;
}

/** The service's database for one command, closed afterwards. */
export async function withStore<T>(
  env: Env,
  work: (store: ReturnType<typeof openSqliteStore>) => Promise<T>,
): Promise<T> {
  const config = loadConfig(env);
  const store = openSqliteStore(databasePath(config.dataDir));
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
