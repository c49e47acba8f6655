/**
 * The transcription sender on its own: submits every queued transcript request to the transcription
 * server and tells the viewers about each change. The backup calls `sendQueuedTranscripts` at the end of
 * each successful run; `tsx src/archive/live/send-transcripts.ts` runs it once from the command line.
 * Viewers are told through the database (PostgreSQL) or `POST /internal/push` on `VIEWER_HOST`:`VIEWER_PORT`
 * with the `.push-secret` beside the database (SQLite); a viewer that is down misses only live frames.
 */
import pg from 'pg';
import { isMainModule } from '../../common/cli/main-module';
import type { Env } from '../../common/env';
import { createLogger, type Logger } from '../../common/logger';
import { loadConfig } from '../config';
import { openArchiveStore } from '../store/open';
import type { WireEvent } from './events';
import { notifyViewers } from './publisher';
import { resolvePushSecret } from './push-secret';
import { Transcription } from './transcription';

export async function sendQueuedTranscripts(
  env: Env = process.env,
  logger: Logger = createLogger('archive'),
): Promise<{ sent: number; failed: number; left: number }> {
  const config = loadConfig(env);
  const store = await openArchiveStore(config.database, logger);
  const db = config.database;
  const client = db.backend === 'postgresql' ? new pg.Client({ connectionString: db.url }) : null;
  try {
    await client?.connect();
    const secret = resolvePushSecret(config);
    const viewer = `http://${env.VIEWER_HOST ?? '127.0.0.1'}:${config.port}/internal/push`;
    const publish = async (event: WireEvent) => {
      if (client) {
        await notifyViewers(client, store, event);
        return;
      }
      await fetch(viewer, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(secret && { authorization: `Bearer ${secret}` }) },
        body: JSON.stringify(event),
        signal: AbortSignal.timeout(5_000),
      }).catch(() => logger.info('viewer not reachable; live frame skipped'));
    };
    const transcription = new Transcription({
      config: config.transcription,
      store,
      logger,
      publish,
      now: Date.now,
    });
    return await transcription.sendQueued();
  } finally {
    await client?.end();
    await store.close();
  }
}

if (isMainModule(import.meta.url)) {
  sendQueuedTranscripts().then(
    (counts) =>
      console.log(
        `Transcription requests: ${counts.sent} sent, ${counts.failed} failed, ${counts.left} left queued`,
      ),
    (error: unknown) => {
      console.error(`Transcription send failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
