/**
 * The viewer's composition root: configuration → logger → store → app → listen. `npm start` and
 * `archive-cli serve` both call `start`.
 */
import { type Env, scopedEnv } from '../common/env';
import { createLogger, type Logger } from '../common/logger';
import { startMetrics } from '../common/metrics';
import { listen } from '../common/serve';
import { type ArchiveConfig, loadConfig, loginModes } from './config';
import { createArchiveApp } from './http/app';
import { describeDatabase } from './store/config';
import { NO_SCHEMA } from './store/migrate';
import { openArchiveStore } from './store/open';

export interface StartOptions {
  logger?: Logger;
  /** Tests lower the password hashing cost and the session cache time. */
  passwordIterations?: number;
  sessionCacheMs?: number;
  /** Port 0 picks a free one (tests). */
  port?: number;
  /** Where the built web page is (default `web/dist`). */
  webDist?: string;
}

export interface RunningViewer {
  url: string;
  config: ArchiveConfig;
  /**
   * Runs before the listener closes on shutdown: the WebSocket hub registers
   * `() => closeWebSockets(wss)` (common/serve), which closes every socket with 1001.
   */
  onClose(hook: () => Promise<void> | void): void;
  close(): Promise<void>;
}

export async function start(env?: Env, options: StartOptions = {}): Promise<RunningViewer> {
  const config = loadConfig(env);
  // The seed's viewer always logs at INFO, whatever LOG_LEVEL says.
  const logger = options.logger ?? createLogger('archive', 'info');
  const store = await openArchiveStore(config.database, logger);
  const { app, live, wiring } = createArchiveApp({
    config,
    store,
    logger,
    ...(options.passwordIterations !== undefined && { passwordIterations: options.passwordIterations }),
    ...(options.sessionCacheMs !== undefined && { sessionCacheMs: options.sessionCacheMs }),
    ...(options.webDist !== undefined && { webDist: options.webDist }),
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
  // The viewer never migrates (the seed's): on a database without the archive's tables, every route
  // that reads them fails until `archive-cli migrate` has run. Said once, at start, in the CLI's words.
  if ((await store.schemaRevision().catch(() => 0)) === 0) logger.warn(NO_SCHEMA);
  const metrics = await startMetrics(scopedEnv(env ?? process.env, 'ARCHIVE_'), config.host);
  if (metrics) logger.info({ url: metrics.url }, 'viewer metrics listening');
  return {
    url: server.url,
    config,
    onClose: (hook) => server.onClose(hook),
    close: async () => {
      await live.close();
      await server.close();
      // A thumbnail whose request went away is still being written: let it finish.
      await wiring.thumbnails.settled();
      await metrics?.close();
      await store.close();
    },
  };
}
