/**
 * For tests: the real viewer app on port 0 over a fresh, migrated, seeded store (SQLite by default), with
 * small helpers to log in and call it. Password hashing runs at a low cost here to keep suites fast.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Env } from '../../common/env';
import { silentLogger } from '../../common/logger';
import { listen } from '../../common/serve';
import { loadConfig } from '../config';
import { FIXTURE } from '../demo/dataset';
import { installFixtureFiles } from '../demo/files';
import type { LiveOptions } from '../live/live';
import type { DatabaseConfig } from '../store/config';
import { openArchiveStore } from '../store/open';
import type { ArchiveDatabase, Backend } from '../store/store';
import { openTestStore } from '../store/testing/databases';
import { createArchiveApp } from './app';
import type { ArchiveWiring } from './wiring';

export { FIXTURE };

export const MASTER = { username: 'admin', password: 'master-secret-42' };
export const PASSWORD_ENV: Env = { VIEWER_USERNAME: MASTER.username, VIEWER_PASSWORD: MASTER.password };

export interface TestViewer {
  url: string;
  /** The viewer's BACKUP_PATH: a temporary folder holding the fixture files when seeded. */
  backupPath: string;
  db: ArchiveDatabase;
  wiring: ArchiveWiring;
  database: DatabaseConfig;
  close(): Promise<void>;
}

export interface TestViewerOptions {
  backend?: Backend;
  seed?: boolean;
  sessionCacheMs?: number;
  now?: () => number;
  live?: LiveOptions;
  /** Where the built web page is (default `web/dist`). */
  webDist?: string;
}

async function serve(db: ArchiveDatabase, database: DatabaseConfig, env: Env, options: TestViewerOptions) {
  const config = { ...loadConfig({ VALIDATE_RESPONSES: 'true', ...env }), database };
  const { app, wiring, live } = createArchiveApp({
    config,
    store: db,
    logger: silentLogger(),
    passwordIterations: 1000,
    ...(options.sessionCacheMs !== undefined && { sessionCacheMs: options.sessionCacheMs }),
    ...(options.now && { now: options.now }),
    ...(options.live && { live: options.live }),
    ...(options.webDist !== undefined && { webDist: options.webDist }),
  });
  await live.start();
  const server = await listen(app, 0);
  // The client closes idle connections first (after 4 s); were the server to close one first, a request
  // sent on it meanwhile would fail with ECONNRESET on a loaded machine.
  server.server.keepAliveTimeout = 120_000;
  live.attach(server.server);
  return {
    server: {
      ...server,
      close: async () => {
        await live.close();
        await server.close();
        await wiring.thumbnails.settled();
      },
    },
    wiring,
  };
}

export async function startTestViewer(
  env: Env = PASSWORD_ENV,
  options: TestViewerOptions = {},
): Promise<TestViewer> {
  const store = await openTestStore(options.backend ?? 'sqlite', { seed: options.seed ?? true });
  const backupPath = await mkdtemp(path.join(tmpdir(), 'archive-backups-'));
  if (options.seed ?? true) await installFixtureFiles(backupPath);
  const { server, wiring } = await serve(
    store.db,
    store.config,
    { BACKUP_PATH: backupPath, ...env },
    options,
  );
  return {
    url: server.url,
    backupPath: wiring.config.media.backupPath,
    db: store.db,
    wiring,
    database: store.config,
    close: async () => {
      await server.close();
      await store.close();
      await rm(backupPath, { recursive: true, force: true });
    },
  };
}

/**
 * Another viewer process on the same database (its own connection and session cache): a restart, or a
 * second viewer beside the first. Closing it leaves the database in place.
 */
export async function startViewerOn(
  database: DatabaseConfig,
  env: Env = PASSWORD_ENV,
  options: TestViewerOptions = {},
): Promise<TestViewer> {
  const db = await openArchiveStore(database, silentLogger());
  const { server, wiring } = await serve(db, database, env, options);
  return {
    url: server.url,
    backupPath: wiring.config.media.backupPath,
    db,
    wiring,
    database,
    close: async () => {
      await server.close();
      await db.close();
    },
  };
}

export interface Call {
  cookie?: string | undefined;
  headers?: Record<string, string>;
  body?: unknown;
  method?: string;
}

/** One request; the answer's JSON (or text) body is read. */
export async function call(base: string, path: string, options: Call = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.cookie = `viewer_auth=${options.cookie}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const res = await fetch(`${base}${path}`, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body !== undefined && { body }),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely and assert on them.
  return { status: res.status, headers: res.headers, body: json as any };
}

/** The `viewer_auth` value a response set (undefined when none; '' when it was cleared). */
export function sessionCookieOf(headers: Headers): string | undefined {
  for (const line of headers.getSetCookie()) {
    const match = /^viewer_auth=([^;]*)/.exec(line);
    if (match) return match[1];
  }
  return undefined;
}

export async function login(
  base: string,
  username: string,
  password: string,
  headers: Record<string, string> = {},
) {
  const res = await call(base, '/api/login', { body: { username, password }, headers });
  if (res.status !== 200)
    throw new Error(`login as ${username} answered ${res.status}: ${JSON.stringify(res.body)}`);
  const cookie = sessionCookieOf(res.headers);
  if (!cookie) throw new Error('login set no cookie');
  return cookie;
}

export async function tokenLogin(base: string, token: string, headers: Record<string, string> = {}) {
  const res = await call(base, '/auth/token', { body: { token }, headers });
  if (res.status !== 200) throw new Error(`token login answered ${res.status}: ${JSON.stringify(res.body)}`);
  const cookie = sessionCookieOf(res.headers);
  if (!cookie) throw new Error('token login set no cookie');
  return cookie;
}
