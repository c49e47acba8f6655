/** Transcripts end to end: requests, limits, the sender, signed callbacks from a fake transcription server. */
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_FILES } from '../demo/files';
import {
  call,
  FIXTURE,
  login,
  MASTER,
  PASSWORD_ENV,
  startTestViewer,
  type TestViewer,
} from '../http/test-viewer';
import { type FakeTranscriptionServer, startFakeTranscriptionServer } from './fake-transcription-server';
import { TestSocket } from './test-socket';

const RC = FIXTURE.releaseCrew;
const VOICE = `/api/chats/${RC.ref}/media/${FIXTURE.voiceMediaKey}/transcripts`;
const STORED = `/api/media/${RC.id}_${FIXTURE.voiceMessageId}_voice/transcripts`;
const SECRET = `whsec_${randomBytes(24).toString('base64')}`;

describe('transcripts', () => {
  let viewer: TestViewer;
  let server: FakeTranscriptionServer;
  let master: string;
  let asker: string;
  let ws: TestSocket;
  let callback: string;

  beforeAll(async () => {
    server = await startFakeTranscriptionServer(SECRET);
    viewer = await startTestViewer({
      ...PASSWORD_ENV,
      TRANSCRIPTION_ENABLED: 'true',
      TRANSCRIPTION_URL: server.url,
      TRANSCRIPTION_API_KEY: 'transcribe-key',
      TRANSCRIPTION_WEBHOOK_SECRET: SECRET,
      TRANSCRIPTION_ASK_RATE_LIMIT: '1',
    });
    callback = `${viewer.url}/api/transcriptions/callback`;
    master = await login(viewer.url, MASTER.username, MASTER.password);
    await call(viewer.url, '/api/admin/viewers', {
      cookie: master,
      body: { username: 'asker', password: 'asker-password' },
    });
    asker = await login(viewer.url, 'asker', 'asker-password');
    ws = await TestSocket.open(viewer.url, { cookie: master });
    await ws.ask({ action: 'subscribe', chat_ref: RC.ref }, 'subscribed');
  });
  afterAll(async () => {
    ws.close();
    await viewer.close();
    await server.close();
  });

  const frames = (status: string) =>
    ws.next((f) => f.type === 'transcript' && f.status === status && f.message_id === FIXTURE.voiceMessageId);

  it('queues a request, or returns the open one, by media key and by storage id', async () => {
    expect((await call(viewer.url, '/api/transcription/status', { cookie: asker })).body).toEqual({
      enabled: true,
      configured: true,
      server_name: null,
      server_version: null,
    });
    const first = await call(viewer.url, VOICE, { cookie: asker, method: 'POST' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ status: 'queued', text: null });
    expect(await frames('queued')).toMatchObject({ transcript_id: first.body.id });
    const again = await call(viewer.url, STORED, { cookie: asker, method: 'POST' });
    expect(again).toMatchObject({ status: 200, body: { id: first.body.id, status: 'queued' } });
    const list = (await call(viewer.url, STORED, { cookie: asker })).body;
    expect(list.map((t: { status: string }) => t.status)).toEqual(['queued', 'done']);
    expect((await call(viewer.url, VOICE, { cookie: asker })).body).toEqual(list);
  });

  it('answers 409 for media without sound or not downloaded, 404 for unknown media', async () => {
    const photo = await call(viewer.url, `/api/chats/${RC.ref}/media/${FIXTURE.photoMediaKey}/transcripts`, {
      cookie: master,
      method: 'POST',
    });
    expect(photo).toMatchObject({
      status: 409,
      body: { detail: 'Only voice, audio and video can be transcribed' },
    });
    const video = await call(viewer.url, `/api/media/${FIXTURE.family.id}_78_video/transcripts`, {
      cookie: master,
      method: 'POST',
    });
    expect(video).toMatchObject({ status: 409, body: { detail: 'Not downloaded yet' } });
    const missing = await call(viewer.url, `/api/chats/${RC.ref}/media/1_voice/transcripts`, {
      cookie: master,
    });
    expect(missing).toMatchObject({ status: 404, body: { detail: 'Media not found' } });
    expect((await call(viewer.url, '/api/media/1_2_voice/transcripts', { cookie: master })).status).toBe(404);
  });

  it('sends queued files, and a signed callback completes the transcript once', async () => {
    const result = await viewer.wiring.live.transcription.sendQueued();
    expect(result).toEqual({ sent: 1, failed: 0, left: 0 });
    const [job] = server.jobs;
    const voice = statSync(path.join(viewer.backupPath, FIXTURE_FILES.voice.path)).size;
    expect(job).toMatchObject({
      bytes: voice,
      contentType: 'audio/ogg',
      authorization: 'Bearer transcribe-key',
    });
    expect(await frames('running')).toBeDefined();
    const status = (await call(viewer.url, '/api/transcription/status', { cookie: master })).body;
    expect(status).toMatchObject({ server_name: 'akou', server_version: '2.4.1' });

    const outcome = {
      type: 'job.completed',
      timestamp: new Date().toISOString(),
      data: { job_id: job?.id, status: 'done', text: 'See you at the harbour at six.', language: 'en' },
    };
    const id = 'msg_replayed_once';
    expect(await server.complete(job as never, outcome, { id, url: callback })).toBe(204);
    const done = await frames('done');
    const [latest] = (await call(viewer.url, VOICE, { cookie: master })).body;
    expect(latest).toMatchObject({
      id: done.transcript_id,
      status: 'done',
      text: 'See you at the harbour at six.',
    });

    const replay = { ...outcome, data: { ...outcome.data, text: 'Something else entirely.' } };
    expect(await server.complete(job as never, replay, { id, url: callback })).toBe(204);
    const after = (await call(viewer.url, VOICE, { cookie: master })).body;
    expect(after[0].text).toBe('See you at the harbour at six.');
    expect(after).toHaveLength(2);

    const feed = (await call(viewer.url, '/api/changes?limit=5', { cookie: master })).body.changes;
    expect(feed[0]).toMatchObject({ kind: 'transcript', message_id: FIXTURE.voiceMessageId, language: 'en' });
    expect(feed[0].text).toBe('See you at the harbour at six.');
  });

  it('rate limits new requests per login with Retry-After; the master is exempt', async () => {
    const limited = await call(viewer.url, VOICE, { cookie: asker, method: 'POST' });
    expect(limited).toMatchObject({
      status: 429,
      body: { detail: 'Too many transcript requests. Try again later.' },
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call(viewer.url, VOICE, { cookie: master, method: 'POST' })).status).toBe(201);
  });

  it('rejects bad and missing signatures, missing headers and bodies over 256 KiB', async () => {
    const job = { ...(server.jobs[0] as never as object), callbackUrl: callback } as never;
    const other = `whsec_${randomBytes(24).toString('base64')}`;
    expect(await server.complete(job, { type: 'job.completed', data: {} }, { secret: other })).toBe(401);
    const bare = await call(viewer.url, '/api/transcriptions/callback', { body: { type: 'x', data: {} } });
    expect(bare).toMatchObject({ status: 400, body: { detail: 'Missing webhook headers' } });
    const unsigned = await call(viewer.url, '/api/transcriptions/callback', {
      body: { type: 'x', data: {} },
      headers: { 'webhook-id': 'msg_unsigned', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) },
    });
    expect(unsigned).toMatchObject({ status: 401, body: { detail: 'Invalid signature' } });
    const big = await call(viewer.url, '/api/transcriptions/callback', {
      body: JSON.stringify({ type: 'x', data: { pad: 'x'.repeat(300 * 1024) } }),
    });
    expect(big).toMatchObject({ status: 413, body: { detail: 'Payload too large' } });
  });
});

describe('open transcript requests per login', () => {
  it('caps the open requests of one login with 429 and Retry-After; the master is exempt', async () => {
    const viewer = await startTestViewer({
      ...PASSWORD_ENV,
      TRANSCRIPTION_ENABLED: 'true',
      TRANSCRIPTION_ASK_MAX_OPEN: '1',
    });
    try {
      await viewer.db.upsertMedia({
        accountId: 1,
        chatId: RC.id,
        messageId: 4101,
        type: 'audio',
        filePath: `${RC.id}/4101_audio.mp3`,
        mimeType: 'audio/mpeg',
        downloaded: true,
      });
      const master = await login(viewer.url, MASTER.username, MASTER.password);
      await call(viewer.url, '/api/admin/viewers', {
        cookie: master,
        body: { username: 'asker', password: 'asker-password' },
      });
      const asker = await login(viewer.url, 'asker', 'asker-password');
      const audio = `/api/chats/${RC.ref}/media/4101_audio/transcripts`;
      expect((await call(viewer.url, VOICE, { cookie: asker, method: 'POST' })).status).toBe(201);
      const capped = await call(viewer.url, audio, { cookie: asker, method: 'POST' });
      expect(capped).toMatchObject({ status: 429, body: { detail: 'Too many open transcript requests' } });
      expect(Number(capped.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await call(viewer.url, audio, { cookie: master, method: 'POST' })).status).toBe(201);
    } finally {
      await viewer.close();
    }
  });
});
