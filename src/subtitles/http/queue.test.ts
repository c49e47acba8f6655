import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server as HttpServer, type IncomingMessage } from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/subtitles/types';
import { createApiKey } from '../domain/accounts';
import {
  authHeader,
  type Fixture,
  makeFixture,
  makeMedia,
  openStore,
  type Server,
  type StandIn,
  startServer,
  waitFor,
  writeModel,
  writeStandInWhisper,
} from '../test-support';

type QueueStatus = components['schemas']['QueueStatus'];

let fixture: Fixture;
let server: Server | undefined;
let key: string;

async function boot(env: Record<string, string> = {}): Promise<Server> {
  const store = openStore(fixture.dataDir);
  key = (await createApiKey(store, 'queue tests')).key;
  await store.close();
  server = await startServer({ ...fixture.env, ...env });
  return server;
}

async function queue(): Promise<QueueStatus> {
  const res = await fetch(`${server?.url}/Plugins/Subtitles/Queue`, { headers: authHeader(key) });
  expect(res.status).toBe(200);
  return (await res.json()) as QueueStatus;
}

async function enqueue(file: string, language = 'en'): Promise<Response> {
  return fetch(`${server?.url}/Plugins/Subtitles/Queue/Items`, {
    method: 'POST',
    headers: { ...authHeader(key), 'content-type': 'application/json' },
    body: JSON.stringify({ path: file, language }),
  });
}

const until = (check: (q: QueueStatus) => boolean) =>
  waitFor(async () => {
    const q = await queue();
    return check(q) ? q : undefined;
  });

function localEngine(options: { exitCode?: number } = {}): { standIn: StandIn; env: Record<string, string> } {
  const standIn = writeStandInWhisper(fixture.binDir, options);
  const model = writeModel(fixture.dataDir);
  return { standIn, env: { SUBTITLES_WHISPER_BINARY: standIn.path, SUBTITLES_WHISPER_MODEL: model } };
}

afterEach(async () => {
  await server?.close();
  server = undefined;
  fixture.remove();
});

describe('the local pipeline', () => {
  it('extracts 16 kHz mono WAV, runs whisper-cli with the documented arguments, writes <media>.<lang>.srt', async () => {
    fixture = makeFixture();
    const { standIn, env } = localEngine();
    const media = makeMedia(path.join(fixture.mediaDir, 'Films', 'Night Walk.mkv'));
    await boot(env);
    const res = await enqueue('Films/Night Walk.mkv', 'fr');
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ path: media, item: 'Night Walk', language: 'fr', queued: true });

    const done = await until((q) => q.processed === 1);
    expect(done).toMatchObject({
      isProcessing: false,
      currentItem: null,
      remaining: 0,
      failed: 0,
      lastError: null,
      phase: 'idle',
    });
    const srt = path.join(fixture.mediaDir, 'Films', 'Night Walk.fr.srt');
    expect(readFileSync(srt, 'utf8')).toBe('1\n00:00:00,000 --> 00:00:01,000\n[fr] stand-in transcript\n\n');

    const args = readFileSync(standIn.log, 'utf8').trim().split(' ');
    expect(args.slice(0, 2)).toEqual(['-m', env.SUBTITLES_WHISPER_MODEL]);
    expect(args[2]).toBe('-f');
    expect(args[3]).toMatch(/audio\.wav$/);
    expect(args.slice(4, 7)).toEqual(['-l', 'fr', '-osrt']);
    expect(args[7]).toBe('-of');

    const wav = readFileSync(standIn.lastWav);
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt16LE(20)).toBe(1); // PCM
    expect(wav.readUInt16LE(22)).toBe(1); // mono
    expect(wav.readUInt32LE(24)).toBe(16_000);
    expect(wav.readUInt16LE(34)).toBe(16); // 16-bit
  });

  it('reports every field truthfully while items are waiting and in progress, and de-duplicates', async () => {
    fixture = makeFixture();
    const { standIn, env } = localEngine();
    makeMedia(path.join(fixture.mediaDir, 'one.mka'));
    makeMedia(path.join(fixture.mediaDir, 'two.mp3'));
    writeFileSync(standIn.hold, '');
    await boot(env);
    expect(await queue()).toEqual({
      isProcessing: false,
      currentItem: null,
      remaining: 0,
      processed: 0,
      failed: 0,
      lastError: null,
      phase: 'idle',
      pendingRequests: 0,
      workers: [{ id: 1, item: null, phase: 'idle' }],
    });
    expect((await enqueue('one.mka')).status).toBe(202);
    expect((await enqueue('two.mp3')).status).toBe(202);

    const busy = await until((q) => q.phase === 'transcribing');
    expect(busy).toEqual({
      isProcessing: true,
      currentItem: 'one',
      remaining: 1,
      processed: 0,
      failed: 0,
      lastError: null,
      phase: 'transcribing',
      pendingRequests: 1,
      workers: [{ id: 1, item: 'one', phase: 'transcribing' }],
    });
    // In progress and waiting items are not queued twice; another language is another job.
    expect(await (await enqueue('one.mka')).json()).toMatchObject({ queued: false });
    expect(await (await enqueue(path.join(fixture.mediaDir, 'two.mp3'))).json()).toMatchObject({
      queued: false,
    });
    expect(await (await enqueue('two.mp3', 'de')).json()).toMatchObject({ queued: true });
    expect((await queue()).remaining).toBe(2);

    rmSync(standIn.hold);
    const done = await until((q) => q.processed === 3);
    expect(done).toMatchObject({ isProcessing: false, remaining: 0, pendingRequests: 0, failed: 0 });
    expect(existsSync(path.join(fixture.mediaDir, 'two.de.srt'))).toBe(true);
    expect(existsSync(path.join(fixture.mediaDir, 'two.en.srt'))).toBe(true);
  });

  it('runs N workers side by side and shows which worker is on which item', async () => {
    fixture = makeFixture();
    const { standIn, env } = localEngine();
    makeMedia(path.join(fixture.mediaDir, 'a.mka'));
    makeMedia(path.join(fixture.mediaDir, 'b.mka'));
    writeFileSync(standIn.hold, '');
    await boot({ ...env, SUBTITLES_LOCAL_WORKERS: '2' });
    await enqueue('a.mka');
    await enqueue('b.mka');
    const both = await until((q) => q.workers.every((w) => w.phase === 'transcribing'));
    expect(both.workers.map((w) => w.item).sort()).toEqual(['a', 'b']);
    expect(both.workers.map((w) => w.id)).toEqual([1, 2]);
    expect(both).toMatchObject({
      isProcessing: true,
      remaining: 0,
      pendingRequests: 0,
      phase: 'transcribing',
    });
    expect(['a', 'b']).toContain(both.currentItem);
    rmSync(standIn.hold);
    await until((q) => q.processed === 2 && !q.isProcessing);
  });

  it('counts a failing item, retries it once at the end of the queue, and keeps going', async () => {
    fixture = makeFixture();
    const { env } = localEngine();
    writeFileSync(path.join(fixture.mediaDir, 'broken.mkv'), 'this is not a media file');
    makeMedia(path.join(fixture.mediaDir, 'fine.mka'));
    await boot(env);
    await enqueue('broken.mkv');
    await enqueue('fine.mka');
    const done = await until((q) => q.processed + q.failed === 2 && !q.isProcessing);
    expect(done).toMatchObject({ processed: 1, failed: 1, remaining: 0 });
    expect(done.lastError).toMatch(/^broken: ffmpeg exited with code \d+/);
    expect(existsSync(path.join(fixture.mediaDir, 'fine.en.srt'))).toBe(true);
    expect(existsSync(path.join(fixture.mediaDir, 'broken.en.srt'))).toBe(false);
    // Still serving.
    expect(
      (await fetch(`${server?.url}/Plugins/Subtitles/Setup/Status`, { headers: authHeader(key) })).status,
    ).toBe(200);
  });

  it('reports an engine crash (SIGILL, exit 132) with its meaning', async () => {
    fixture = makeFixture();
    const { env } = localEngine({ exitCode: 132 });
    makeMedia(path.join(fixture.mediaDir, 'clip.mka'));
    await boot({ ...env, SUBTITLES_QUEUE_MAX_ATTEMPTS: '1' });
    await enqueue('clip.mka');
    const done = await until((q) => q.failed === 1);
    expect(done.lastError).toBe(
      'clip: whisper-cli exited with code 132 (illegal instruction): this build needs AVX; install a -noavx variant',
    );
  });

  it('fails an item clearly when no engine is installed', async () => {
    fixture = makeFixture();
    makeMedia(path.join(fixture.mediaDir, 'clip.mka'));
    await boot({ SUBTITLES_QUEUE_MAX_ATTEMPTS: '1' });
    await enqueue('clip.mka');
    const done = await until((q) => q.failed === 1);
    expect(done.lastError).toMatch(/^clip: no whisper-cli binary found/);
  });

  it('keeps waiting and interrupted items across a restart', async () => {
    fixture = makeFixture();
    const { standIn, env } = localEngine();
    makeMedia(path.join(fixture.mediaDir, 'first.mka'));
    makeMedia(path.join(fixture.mediaDir, 'second.mka'));
    writeFileSync(standIn.hold, '');
    await boot(env);
    await enqueue('first.mka');
    await enqueue('second.mka');
    await until((q) => q.phase === 'transcribing');
    await server?.close();

    rmSync(standIn.hold);
    server = await startServer({ ...fixture.env, ...env });
    const done = await until((q) => q.processed === 2);
    expect(done).toMatchObject({ failed: 0, remaining: 0 });
    expect(existsSync(path.join(fixture.mediaDir, 'first.en.srt'))).toBe(true);
    expect(existsSync(path.join(fixture.mediaDir, 'second.en.srt'))).toBe(true);
  });
});

describe('the library scan', () => {
  it('queues the media files without a subtitle in that language, once', async () => {
    fixture = makeFixture();
    const { standIn, env } = localEngine();
    writeFileSync(standIn.hold, '');
    makeMedia(path.join(fixture.mediaDir, 'Show', 'Season 1', 'S01E01.mka'));
    writeFileSync(path.join(fixture.mediaDir, 'Show', 'Season 1', 'S01E02.MKV'), '');
    writeFileSync(path.join(fixture.mediaDir, 'Clip.webm'), '');
    writeFileSync(path.join(fixture.mediaDir, 'Film.mp4'), '');
    writeFileSync(path.join(fixture.mediaDir, 'Film.en.srt'), '');
    writeFileSync(path.join(fixture.mediaDir, 'notes.txt'), '');
    writeFileSync(path.join(fixture.mediaDir, '.hidden.mkv'), '');
    await boot(env);
    const scan = () =>
      fetch(`${server?.url}/Plugins/Subtitles/Queue/Scan`, {
        method: 'POST',
        headers: { ...authHeader(key), 'content-type': 'application/json' },
        body: JSON.stringify({ language: 'en' }),
      });
    const first = await scan();
    expect(first.status).toBe(202);
    expect(await first.json()).toEqual({ language: 'en', scanned: 4, queued: 3 });
    expect(await (await scan()).json()).toEqual({ language: 'en', scanned: 4, queued: 0 });
    const q = await queue();
    expect(q.remaining + (q.isProcessing ? 1 : 0)).toBe(3);
    expect(q.pendingRequests).toBe(0);
    rmSync(standIn.hold);
  });

  it('uses the default language without a body, and answers 409 without a media folder', async () => {
    fixture = makeFixture();
    await boot({ SUBTITLES_DEFAULT_LANGUAGE: 'es' });
    const res = await fetch(`${server?.url}/Plugins/Subtitles/Queue/Scan`, {
      method: 'POST',
      headers: authHeader(key),
    });
    expect(await res.json()).toEqual({ language: 'es', scanned: 0, queued: 0 });
    rmSync(fixture.mediaDir, { recursive: true });
    const missing = await fetch(`${server?.url}/Plugins/Subtitles/Queue/Scan`, {
      method: 'POST',
      headers: authHeader(key),
    });
    expect(missing.status).toBe(409);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await missing.json()).toMatchObject({
      status: 409,
      title: expect.stringContaining('SUBTITLES_MEDIA_DIR'),
    });
  });
});

describe('enqueue input', () => {
  const send = (body: unknown) =>
    fetch(`${server?.url}/Plugins/Subtitles/Queue/Items`, {
      method: 'POST',
      headers: { ...authHeader(key), 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('refuses each bad request with 400 problem details naming the field, and queues nothing', async () => {
    fixture = makeFixture();
    makeMedia(path.join(fixture.mediaDir, 'clip.mka'));
    mkdirSync(path.join(fixture.mediaDir, 'Films'));
    writeFileSync(path.join(fixture.root, 'outside.mkv'), '');
    symlinkSync(path.join(fixture.root, 'outside.mkv'), path.join(fixture.mediaDir, 'link.mkv'));
    await boot();
    const cases: [unknown, string][] = [
      [{ path: 'clip.mka' }, 'language'],
      [{ language: 'en' }, 'path'],
      [{ path: 'clip.mka', language: 'English' }, 'language'],
      [{ path: 'clip.mka', language: 'auto' }, 'language'],
      [{ path: '', language: 'en' }, 'path'],
      [{ path: 'x'.repeat(4097), language: 'en' }, 'path'],
      [{ path: 7, language: 'en' }, 'path'],
      [{ path: 'missing.mkv', language: 'en' }, 'path'],
      [{ path: '../outside.mkv', language: 'en' }, 'path'],
      [{ path: '/etc/passwd', language: 'en' }, 'path'],
      [{ path: 'Films', language: 'en' }, 'path'],
      [{ path: 'link.mkv', language: 'en' }, 'path'],
      ['{"path": ', 'body'],
      ['[]', 'body'],
    ];
    for (const [body, field] of cases) {
      const res = await send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const problem = (await res.json()) as {
        status: number;
        title: string;
        errors: Record<string, string[]>;
      };
      expect(problem.status).toBe(400);
      expect(Object.keys(problem.errors), JSON.stringify(body)).toEqual([field]);
    }
    const linked = (await (await send({ path: 'link.mkv', language: 'en' })).json()) as {
      errors: Record<string, string[]>;
    };
    expect(linked.errors.path).toEqual(['the file must be inside the media folder']);
    expect((await queue()).remaining).toBe(0);
    expect((await queue()).isProcessing).toBe(false);
  });
});

describe('the remote provider', () => {
  let remote: HttpServer | undefined;
  afterEach(() => {
    remote?.closeAllConnections();
    remote?.close();
    remote = undefined;
  });

  interface Received {
    url: string;
    authorization: string | undefined;
    fields: Record<string, string>;
    file: Buffer;
    fileType: string;
  }

  async function fakeApi(
    answer: (received: Received) => { status: number; body: string },
  ): Promise<{ url: string; received: Received[] }> {
    const received: Received[] = [];
    remote = createServer(async (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const form = await new Request('http://x', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? '' },
        body: Buffer.concat(chunks),
      }).formData();
      const file = form.get('file') as File;
      const fields: Record<string, string> = {};
      for (const [name, value] of form.entries()) if (typeof value === 'string') fields[name] = value;
      const entry = {
        url: req.url ?? '',
        authorization: req.headers.authorization,
        fields,
        file: Buffer.from(await file.arrayBuffer()),
        fileType: file.type,
      };
      received.push(entry);
      const { status, body } = answer(entry);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
    });
    await new Promise<void>((resolve) => remote?.listen(0, '127.0.0.1', resolve));
    const address = remote.address();
    return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, received };
  }

  it('posts the WAV to /v1/audio/transcriptions and writes the SRT it answers', async () => {
    fixture = makeFixture();
    makeMedia(path.join(fixture.mediaDir, 'talk.mka'));
    const srt = '1\n00:00:00,000 --> 00:00:02,000\nHola.\n\n';
    const api = await fakeApi(() => ({ status: 200, body: srt }));
    await boot({
      SUBTITLES_REMOTE_URL: api.url,
      SUBTITLES_REMOTE_API_KEY: 'remote-secret',
      SUBTITLES_REMOTE_MODEL: 'large-v3',
    });
    await enqueue('talk.mka', 'es');
    await until((q) => q.processed === 1);
    expect(readFileSync(path.join(fixture.mediaDir, 'talk.es.srt'), 'utf8')).toBe(srt);
    const [call] = api.received;
    expect(call?.url).toBe('/v1/audio/transcriptions');
    expect(call?.authorization).toBe('Bearer remote-secret');
    expect(call?.fields).toEqual({ model: 'large-v3', language: 'es', response_format: 'srt' });
    expect(call?.fileType).toBe('audio/wav');
    expect(call?.file.readUInt32LE(24)).toBe(16_000);
  });

  it('counts a remote failure, with the status, and goes on', async () => {
    fixture = makeFixture();
    makeMedia(path.join(fixture.mediaDir, 'talk.mka'));
    const api = await fakeApi(() => ({ status: 503, body: 'busy' }));
    await boot({ SUBTITLES_REMOTE_URL: `${api.url}/v1`, SUBTITLES_QUEUE_MAX_ATTEMPTS: '1' });
    await enqueue('talk.mka');
    const done = await until((q) => q.failed === 1);
    expect(done.lastError).toBe('talk: the remote transcription API answered 503');
    expect(api.received[0]?.authorization).toBeUndefined();
    expect(api.received[0]?.url).toBe('/v1/audio/transcriptions');
  });

  it('counts an unreachable remote API as a failure', async () => {
    fixture = makeFixture();
    makeMedia(path.join(fixture.mediaDir, 'talk.mka'));
    await boot({ SUBTITLES_REMOTE_URL: 'http://127.0.0.1:1', SUBTITLES_QUEUE_MAX_ATTEMPTS: '1' });
    await enqueue('talk.mka');
    const done = await until((q) => q.failed === 1);
    expect(done.lastError).toBe('talk: the remote transcription API could not be reached');
  });
});
