/**
 * The viewer's composition root: configuration → logger → store → app → listen. `npm start` and
 * `archive-cli serve` both call `start`.
 */
import type { Env } from '../common/env';
import { createLogger, type Logger } from '../common/logger';
import { listen } from '../common/serve';
import { type ArchiveConfig, loadConfig, loginModes } from './config';
import { createArchiveApp } from './http/app';
import { describeDatabase } from './store/config';
import { openArchiveStore } from './store/open';

export interface StartOptions {
  logger?: Logger;
  /** Tests lower the password hashing cost and the session cache time. */
  passwordIterations?: number;
  sessionCacheMs?: number;
  /** Port 0 picks a free one (tests). */
  port?: number;
}

export interface RunningViewer {
  url: string;
  config: ArchiveConfig;
  close(): Promise<void>;
}

export async function start(env?: Env, options: StartOptions = {}): Promise<RunningViewer> {
  const config = loadConfig(env);
  // The seed's viewer always logs at INFO, whatever LOG_LEVEL says.
  const logger = options.logger ?? createLogger('archive', 'info');
  const store = await openArchiveStore(config.database, logger);
  const { app, live } = createArchiveApp({
    config,
    store,
    logger,
    ...(options.passwordIterations !== undefined && { passwordIterations: options.passwordIterations }),
    ...(options.sessionCacheMs !== undefined && { sessionCacheMs: options.sessionCacheMs }),
  });
  await live.start();
  const server = await listen(app, options.port ?? config.port, config.host);
  live.attach(server.server);
  const modes = loginModes(config.auth);
  const loginModeNames = (['password', 'proxy', 'anonymous'] as const).filter((mode) => modes[mode]);
  logger.info({ url: server.url, ...describeDatabase(config.database), loginModeNames }, 'viewer listening');
  if (!modes.configured) {
    logger.warn('no login mode configured: every protected route answers 503 until one is set');
  }
  return {
    url: server.url,
    config,
    close: async () => {
      await live.close();
      await server.close();
      await store.close();
    },
  };
}
