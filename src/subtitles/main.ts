/**
 * The composition root: config → logger → store → settings → injection → queue → app → listen.
 */
import { type Env, scopedEnv } from '../common/env';
import { createLogger, type Logger } from '../common/logger';
import { startMetrics, watchQueue } from '../common/metrics';
import { listen } from '../common/serve';
import { loadConfig, type SubtitlesConfig } from './config';
import { indexPath, injectIntoFile, usesDirect } from './domain/injection';
import { hostProbe, type Probe } from './domain/probe';
import { TranscriptionQueue } from './domain/queue';
import { loadServerSettings } from './domain/server-settings';
import { locateEngine } from './domain/setup-status';
import { localTranscriber, remoteTranscriber, type Transcriber } from './domain/transcribe';
import { createSubtitlesApp } from './http/app';
import { attachSocket } from './http/socket';
import { databasePath, openSqliteStore } from './store/sqlite';

export interface RunningSubtitles {
  url: string;
  close(): Promise<void>;
}

/** Tests replace what looks at the machine. */
export interface StartOptions {
  probe?: Probe;
  logger?: Logger;
  /** The folder of the built pages (default `web/dist`). */
  webDist?: string;
}

function transcriberFor(config: SubtitlesConfig, probe: Probe): Transcriber {
  if (config.provider === 'remote' && config.remote.url) {
    return remoteTranscriber({
      url: config.remote.url,
      apiKey: config.remote.apiKey,
      model: config.remote.model,
    });
  }
  return localTranscriber(async () => {
    const engine = await locateEngine(probe, { dataDir: config.dataDir, ...config.whisper });
    return { command: engine.command, model: engine.modelPath };
  });
}

export async function start(env: Env, options: StartOptions = {}): Promise<RunningSubtitles> {
  const config = loadConfig(env);
  const logger = options.logger ?? createLogger('subtitles', config.logLevel);
  const probe = options.probe ?? hostProbe();
  const store = openSqliteStore(databasePath(config.dataDir));
  try {
    const settings = await loadServerSettings(store, config);
    if (config.pluginEnabled && usesDirect(config.injection)) {
      const { outcome, error } = injectIntoFile(indexPath(config.webDir));
      logger.info({ outcome, error }, 'client script injection');
    }
    const queue = await TranscriptionQueue.open({
      store,
      transcribe: transcriberFor(config, probe),
      ffmpeg: config.ffmpeg,
      mediaDir: config.mediaDir,
      workers: config.workers,
      maxAttempts: config.maxAttempts,
      jobTimeoutMs: config.jobTimeoutMs,
      logger,
    });
    let selfUrl: string | undefined;
    const { app } = createSubtitlesApp({
      config,
      store,
      queue,
      probe,
      settings,
      webDist: options.webDist,
      selfUrl: () => selfUrl,
      logger,
    });
    const server = await listen(app, config.port, config.host);
    attachSocket(server.server, {
      basePath: config.basePath,
      store,
      legacyAuthorization: () => settings.legacy.enabled,
      logger,
    });
    selfUrl = server.url.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//[::1]:');
    if (config.pluginEnabled) queue.start();
    watchQueue(() => queue.status());
    const metrics = await startMetrics(scopedEnv(env, 'SUBTITLES_'), config.host);
    if (metrics) logger.info({ url: metrics.url }, 'subtitles metrics listening');
    logger.info(
      { url: server.url, basePath: config.basePath, plugin: config.pluginEnabled ? config.pluginName : null },
      'subtitles listening',
    );
    return {
      url: `${server.url}${config.basePath}`,
      close: async () => {
        // Stop accepting and finish the requests in flight; jobs in progress go back to the queue.
        await server.close();
        await queue.stop();
        watchQueue(undefined);
        await metrics?.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
