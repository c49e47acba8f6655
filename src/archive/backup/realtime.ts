/**
 * How the listener's events reach the viewers. SQLite mode: `POST /internal/push` on
 * `VIEWER_HOST`:`VIEWER_PORT` (defaults 127.0.0.1 and 8080, the seed's in-compose port; outside compose set
 * `VIEWER_PORT=8000`) with `Authorization: Bearer <secret>`, the secret being `INTERNAL_PUSH_SECRET` or the
 * `.push-secret` file the viewer creates beside the database. PostgreSQL mode: a notification on the
 * channel every viewer LISTENs to. The body is the InternalPushEvent of the viewer's document in both.
 * A viewer that is down misses live frames only: the archive already holds the change.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { type Env, intVar, scopedEnv, stringVar } from '../../common/env';
import type { WireEvent } from '../live/events';
import { LIVE_CHANNEL, notificationPayload } from '../live/publisher';
import { PUSH_SECRET_FILE } from '../live/push-secret';
import type { DatabaseConfig } from '../store/config';
import type { ArchiveStore } from '../store/store';
import type { ArchiveEvent } from './listener';

export { LIVE_CHANNEL };

const PUSH_TIMEOUT_MS = 5_000;

export interface Delivery {
  publish(event: ArchiveEvent): Promise<void>;
  close(): Promise<void>;
}

export function viewerPushUrl(env: Env): string {
  const scoped = scopedEnv(env, 'ARCHIVE_');
  const host = stringVar(scoped, 'VIEWER_HOST', '127.0.0.1');
  const port = intVar(scoped, 'VIEWER_PORT', 8080, { min: 1 });
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}/internal/push`;
}

/** INTERNAL_PUSH_SECRET, else (SQLite) the viewer's `.push-secret` beside the database; null when neither. */
export function pushSecret(env: Env, database: DatabaseConfig): string | null {
  const configured = stringVar(scopedEnv(env, 'ARCHIVE_'), 'INTERNAL_PUSH_SECRET')?.trim();
  if (configured) return configured;
  if (database.backend !== 'sqlite' || database.path === ':memory:') return null;
  try {
    const secret = readFileSync(
      path.join(path.dirname(path.resolve(database.path)), PUSH_SECRET_FILE),
      'utf8',
    );
    return secret.trim() || null;
  } catch {
    return null;
  }
}

/** SQLite mode: one POST per event; a refusal or an unreachable viewer is an error for the caller to log. */
export function httpDelivery(url: string, secret: string | null): Delivery {
  return {
    async publish(event) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(secret && { authorization: `Bearer ${secret}` }) },
        body: JSON.stringify(event),
        signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) throw new Error(`viewer answered ${response.status}`);
    },
    close: async () => undefined,
  };
}

/**
 * PostgreSQL mode: `pg_notify` on one connection opened on first use (and again after it fails). `payload`
 * turns an event into the notification text (the viewer's own rule for events over the size limit).
 */
export function notifyDelivery(
  url: string,
  payload: (event: ArchiveEvent) => Promise<string> = async (event) => JSON.stringify(event),
): Delivery {
  let client: Promise<pg.Client> | null = null;
  const connect = () => {
    client ??= (async () => {
      const c = new pg.Client({ connectionString: url });
      c.on('error', () => {
        client = null;
      });
      await c.connect();
      return c;
    })().catch((error: unknown) => {
      client = null;
      throw error;
    });
    return client;
  };
  return {
    async publish(event) {
      const c = await connect();
      await c.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, await payload(event)]);
    },
    async close() {
      const c = await client?.catch(() => null);
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}

/**
 * The delivery of the configured mode. With the archive's store, PostgreSQL mode follows the viewers' rule
 * for an event over the notification size limit: it is stored and the notification carries its id.
 */
export function openDelivery(
  env: Env,
  database: DatabaseConfig,
  store?: Pick<ArchiveStore, 'saveLiveEvent'>,
): Delivery {
  if (database.backend === 'postgresql') {
    return notifyDelivery(
      database.url,
      store
        ? (event) => notificationPayload(event as WireEvent, (text) => store.saveLiveEvent(text))
        : undefined,
    );
  }
  return httpDelivery(viewerPushUrl(env), pushSecret(env, database));
}
