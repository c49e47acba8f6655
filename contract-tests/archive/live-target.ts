/**
 * The live archive target for contract suites: the real viewer (`start`, as `npm start` runs it) in this
 * process on port 0, over a migrated SQLite archive seeded with the fixture data, whose refs and ids are
 * the document's example values, with the fixture's media files in a temporary BACKUP_PATH. The master
 * credentials are the test ones; the open commands run `true` (a command that starts and succeeds).
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { seedFixtures } from '../../src/archive/demo/dataset';
import { installFixtureFiles } from '../../src/archive/demo/files';
import { startFakeTranscriptionServer } from '../../src/archive/live/fake-transcription-server';
import { start } from '../../src/archive/main';
import { migrateOpenStore } from '../../src/archive/store/migrate';
import { openArchiveStore } from '../../src/archive/store/open';
import { createTestDatabase } from '../../src/archive/store/testing/databases';
import { silentLogger } from '../../src/common/logger';
import { writeExamplePages } from '../../src/common/testing/example-pages';
import type { Target } from '../lib/target';

export const LIVE_MASTER = { username: 'admin', password: 'master-secret-42' };
/** The `/internal/push` bearer secret of the live target. */
export const LIVE_PUSH_SECRET = 'live-contract-push-secret';
/** The Standard Webhooks secret the live target's transcription callbacks are signed with. */
export const LIVE_WEBHOOK_SECRET = `whsec_${Buffer.from('live-contract-webhook-secret-32b').toString('base64')}`;

/** Signs a transcription callback request as the transcription server does, dated now. */
export function signCallback(headers: Record<string, string>, body: string): void {
  const id = headers['webhook-id'] ?? `msg_${Date.now()}`;
  const at = new Date();
  headers['webhook-id'] = id;
  headers['webhook-timestamp'] = String(Math.floor(at.getTime() / 1000));
  headers['webhook-signature'] = new Webhook(LIVE_WEBHOOK_SECRET).sign(id, at, body);
}

export async function startLiveArchive(): Promise<Target & { database: string }> {
  const database = await createTestDatabase('sqlite');
  if (database.config.backend !== 'sqlite') throw new Error('expected SQLite');
  const db = await openArchiveStore(database.config, silentLogger());
  try {
    await migrateOpenStore(db);
    await seedFixtures(db);
  } finally {
    await db.close();
  }
  const backups = await mkdtemp(path.join(tmpdir(), 'archive-live-backups-'));
  await installFixtureFiles(backups);
  const pages = await writeExamplePages('archive');
  // The optional routes on, so they answer as they do when used: Web Push, and transcription with a
  // webhook secret against a fake transcription server.
  const transcription = await startFakeTranscriptionServer(LIVE_WEBHOOK_SECRET);
  const viewer = await start(
    {
      DATABASE_PATH: database.config.path,
      BACKUP_PATH: backups,
      MEDIA_OPEN_CMD: 'true',
      MEDIA_OPEN_PATH_CMD: 'true',
      VIEWER_USERNAME: LIVE_MASTER.username,
      VIEWER_PASSWORD: LIVE_MASTER.password,
      VALIDATE_RESPONSES: 'true',
      INTERNAL_PUSH_SECRET: LIVE_PUSH_SECRET,
      PUSH_NOTIFICATIONS: 'full',
      TRANSCRIPTION_ENABLED: 'true',
      TRANSCRIPTION_URL: transcription.url,
      TRANSCRIPTION_WEBHOOK_SECRET: LIVE_WEBHOOK_SECRET,
    },
    { port: 0, logger: silentLogger(), passwordIterations: 1000, webDist: pages.distRoot },
  );
  return {
    kind: 'live',
    url: viewer.url,
    database: database.config.path,
    stop: async () => {
      await viewer.close();
      await transcription.close();
      await database.drop();
      await rm(backups, { recursive: true, force: true });
      await pages.remove();
    },
  };
}

/** Logs in as the master; returns the session cookie value. */
export async function liveMasterCookie(url: string): Promise<string> {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(LIVE_MASTER),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((line) => /^viewer_auth=([^;]+)/.exec(line)?.[1])
    .find(Boolean);
  if (res.status !== 200 || !cookie) throw new Error(`master login answered ${res.status}`);
  return cookie;
}

/**
 * What the document's admin and login examples address, beyond the fixture archive: the login example's
 * viewer account, viewer id 3, share token id 5 and the settings example's keys. Dredd's OpenAPI 3 adapter
 * loses `nullable` on schemas reached through a reference (a Dredd defect), so these accounts carry
 * explicit grants rather than null.
 */
export async function seedExampleTargets(url: string, cookie: string): Promise<void> {
  const send = async (route: string, body: unknown, method = 'POST') => {
    const res = await fetch(`${url}${route}`, {
      method,
      headers: { 'content-type': 'application/json', cookie: `viewer_auth=${cookie}` },
      body: JSON.stringify(body),
    });
    if (res.status !== (method === 'POST' ? 201 : 200)) throw new Error(`${route} answered ${res.status}`);
  };
  const grants = { allowed_accounts: [1, 2], allowed_chat_refs: ['k3JZp0aV8s2Q1xWn7bRt4A'] };
  await send('/api/admin/viewers', { username: 'marta', password: 'tall-lantern-harbour-42', ...grants });
  await send('/api/admin/viewers', { username: 'jonas', password: 'another-long-passphrase', ...grants });
  await send('/api/admin/viewers', { username: 'grandpa', password: 'another-long-passphrase', ...grants });
  for (let i = 0; i < 5; i++)
    await send('/api/admin/tokens', { allowed_chat_refs: ['k3JZp0aV8s2Q1xWn7bRt4A'] });
  for (const [key, value] of Object.entries({
    theme: 'midnight',
    transcription_server_name: 'akou',
    transcription_server_version: '2.4.1',
  })) {
    await send(`/api/admin/settings/${key}`, { value }, 'PUT');
  }
}
