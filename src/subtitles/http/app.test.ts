import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBundledDocument } from '../../common/documents';
import { documentedOperations } from '../../common/http/operations';
import { silentLogger } from '../../common/logger';
import { listen } from '../../common/serve';
import { loadConfig } from '../config';
import { createApiKey, createUser } from '../domain/accounts';
import { clientScript, SCRIPT_TAG } from '../domain/client-script';
import type { InjectionStatus } from '../domain/injection';
import { hostProbe } from '../domain/probe';
import { TranscriptionQueue } from '../domain/queue';
import { loadServerSettings } from '../domain/server-settings';
import {
  authHeader,
  type Fixture,
  INDEX_HTML,
  makeFixture,
  openStore,
  type Server,
  startServer,
  writeModel,
  writeStandInWhisper,
} from '../test-support';
import { createSubtitlesApp, subtitlesHandlers } from './app';
import { errorMapper } from './errors';

let fixture: Fixture;
let server: Server | undefined;
let key: string;

async function boot(env: Record<string, string> = {}): Promise<Server> {
  const store = openStore(fixture.dataDir);
  key = (await createApiKey(store, 'app tests')).key;
  await store.close();
  server = await startServer({ ...fixture.env, ...env });
  return server;
}

const get = (route: string) => fetch(`${server?.url}${route}`, { headers: authHeader(key) });
const injection = async () =>
  (await (await get('/Plugins/Subtitles/Setup/InjectionStatus')).json()) as InjectionStatus;
const indexFile = () => path.join(fixture.webDir, 'index.html');
const INJECTED = INDEX_HTML.replace('</head>', `${SCRIPT_TAG}\n</head>`);

afterEach(async () => {
  await server?.close();
  server = undefined;
  fixture?.remove();
});

it('has exactly one handler per documented operation', () => {
  const operations = documentedOperations(loadBundledDocument('subtitles')).map((op) => op.operationId);
  // The map is made without touching its wiring, which only the handlers read.
  expect(Object.keys(subtitlesHandlers({} as never)).sort()).toEqual([...operations].sort());
});

it('documents the answer each route gives to a query parameter it does not take', async () => {
  fixture = makeFixture();
  await boot();
  const undocumented: string[] = [];
  for (const op of documentedOperations(loadBundledDocument('subtitles'))) {
    const route = op.path.replace('{plugin}', 'Subtitles');
    const joiner = op.path.includes('configurationpage') ? '?name=subtitles.js&' : '?';
    const res = await fetch(`${server?.url}${route}${joiner}bogus=1`, {
      method: op.method.toUpperCase(),
      headers: { ...authHeader(key), ...(op.method === 'get' ? {} : { 'content-type': 'application/json' }) },
      ...(op.method === 'get' ? {} : { body: '{}' }),
      redirect: 'manual',
    });
    const responses = (op.operation as { responses?: Record<string, unknown> }).responses ?? {};
    if (!(String(res.status) in responses)) undocumented.push(`${op.operationId} ${res.status}`);
  }
  expect(undocumented).toEqual([]);
});

describe('GET Setup/Status', () => {
  it('reports the configured engine, the platform and the variant, with no null anywhere', async () => {
    fixture = makeFixture();
    const standIn = writeStandInWhisper(fixture.binDir);
    const model = writeModel(fixture.dataDir, 'ggml-base.bin');
    await boot({ SUBTITLES_WHISPER_BINARY: standIn.path, SUBTITLES_WHISPER_VARIANT: 'cpu' });
    const res = await get('/Plugins/Subtitles/Setup/Status');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain('null');
    expect(JSON.parse(text)).toMatchObject({
      SetupComplete: true,
      BinaryFound: true,
      BinaryFoundInPath: false,
      BinaryPath: standIn.path,
      ModelFound: true,
      ModelPath: model,
      InstalledVariant: 'cpu',
      Platform: expect.stringMatching(/^(linux|osx|win)-/),
    });
  });

  it('leaves BinaryPath and ModelPath out when nothing is installed', async () => {
    fixture = makeFixture();
    await boot();
    const status = (await (await get('/Plugins/Subtitles/Setup/Status')).json()) as Record<string, unknown>;
    expect(status).toMatchObject({
      SetupComplete: false,
      BinaryFound: false,
      ModelFound: false,
      InstalledVariant: '',
    });
    expect(Object.keys(status)).not.toContain('BinaryPath');
    expect(Object.keys(status)).not.toContain('ModelPath');
  });
});

describe('GET Setup/InjectionStatus and the web client', () => {
  it('direct: injects the tag at start, once, and verifies the served page', async () => {
    fixture = makeFixture();
    await boot();
    expect(readFileSync(indexFile(), 'utf8')).toBe(INJECTED);
    expect(await injection()).toMatchObject({
      Level: 'ok',
      Mode: 'direct',
      ScriptTagPresent: true,
      ServedHtmlVerified: 'yes',
    });
    await server?.close();
    await boot();
    expect(readFileSync(indexFile(), 'utf8')).toBe(INJECTED);
    const page = await fetch(`${server?.url}/web/index.html`);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toBe(INJECTED);
  });

  it('direct: warns when index.html was replaced after start, and says to restart', async () => {
    fixture = makeFixture();
    await boot();
    writeFileSync(indexFile(), INDEX_HTML);
    const status = await injection();
    expect(status).toMatchObject({
      Level: 'warning',
      Mode: 'none',
      ScriptTagPresent: false,
      ServedHtmlVerified: 'no',
    });
    expect(status.Message).toContain('Restart the server');
  });

  it('file transformation: leaves the file alone and adds the tag to the served page', async () => {
    fixture = makeFixture();
    await boot({ SUBTITLES_INJECTION: 'file-transformation' });
    expect(readFileSync(indexFile(), 'utf8')).toBe(INDEX_HTML);
    expect(await (await fetch(`${server?.url}/web/index.html`)).text()).toBe(INJECTED);
    expect(await injection()).toMatchObject({
      Level: 'ok',
      Mode: 'file-transformation',
      ScriptTagPresent: false,
      ServedHtmlVerified: 'yes',
    });
  });

  it('both: reports direct+file-transformation', async () => {
    fixture = makeFixture();
    await boot({ SUBTITLES_INJECTION: 'direct+file-transformation' });
    expect(await injection()).toMatchObject({
      Level: 'ok',
      Mode: 'direct+file-transformation',
      ScriptTagPresent: true,
    });
    expect(await (await fetch(`${server?.url}/web/index.html`)).text()).toBe(INJECTED);
  });

  it('none: nothing injected, a warning', async () => {
    fixture = makeFixture();
    await boot({ SUBTITLES_INJECTION: 'none' });
    expect(await injection()).toMatchObject({ Level: 'warning', Mode: 'none', ServedHtmlVerified: 'no' });
  });

  it('an error, and unknown served page, when index.html is missing', async () => {
    fixture = makeFixture();
    rmSync(indexFile());
    await boot();
    expect((await fetch(`${server?.url}/web/index.html`)).status).toBe(404);
    const status = await injection();
    expect(status).toMatchObject({
      Level: 'error',
      Mode: 'none',
      ScriptTagPresent: false,
      ServedHtmlVerified: 'unknown',
    });
    expect(status.Message).toContain(indexFile());
  });

  it('an error when index.html has no </head>, the file left alone', async () => {
    fixture = makeFixture();
    writeFileSync(indexFile(), '<html><body>no head</body></html>');
    await boot();
    expect(readFileSync(indexFile(), 'utf8')).toBe('<html><body>no head</body></html>');
    expect(await injection()).toMatchObject({ Level: 'error', ScriptTagPresent: false });
  });

  it('probes the served page under the base path', async () => {
    fixture = makeFixture();
    await boot({ SUBTITLES_BASE_PATH: '/jellyfin' });
    expect(server?.url).toMatch(/\/jellyfin$/);
    expect(await injection()).toMatchObject({ Level: 'ok', ServedHtmlVerified: 'yes' });
  });

  it('serves the client script with the route segment and base path it needs', async () => {
    fixture = makeFixture();
    await boot({ SUBTITLES_BASE_PATH: '/media', SUBTITLES_PLUGIN_NAME: 'WhisperSubs' });
    const res = await fetch(`${server?.url}/web/configurationpage?name=subtitles.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const script = await res.text();
    expect(script).toBe(clientScript('/media', 'WhisperSubs'));
    expect(script).toContain('"/media/Plugins/WhisperSubs/Queue/Items"');
    expect((await fetch(`${server?.url}/web/configurationpage?name=other.js`)).status).toBe(400);
  });

  it('neither injects nor serves the script while the plugin is not loaded', async () => {
    fixture = makeFixture();
    await boot({ SUBTITLES_PLUGIN_ENABLED: 'false', SUBTITLES_INJECTION: 'direct+file-transformation' });
    expect(readFileSync(indexFile(), 'utf8')).toBe(INDEX_HTML);
    expect(await (await fetch(`${server?.url}/web/index.html`)).text()).toBe(INDEX_HTML);
    expect((await fetch(`${server?.url}/web/configurationpage?name=subtitles.js`)).status).toBe(404);
    // Its routes are not there at all: another method on one of their paths is a 404 too, not a 405.
    for (const method of ['GET', 'DELETE', 'PUT']) {
      expect((await fetch(`${server?.url}/Plugins/Subtitles/Queue`, { method })).status, method).toBe(404);
    }
  });

  it('documents the script it serves by default as the example', () => {
    const doc = loadBundledDocument('subtitles') as {
      paths: Record<
        string,
        { get: { responses: { 200: { content: Record<string, { example: string }> } } } }
      >;
    };
    const example =
      doc.paths['/web/configurationpage']?.get.responses[200].content['text/javascript']?.example;
    expect(example).toBe(clientScript('', 'Subtitles'));
  });
});

describe('POST /Users/AuthenticateByName', () => {
  it('signs in without regard to the name’s case and answers a Jellyfin-shaped result', async () => {
    fixture = makeFixture();
    await boot();
    const store = openStore(fixture.dataDir);
    await createUser(store, { name: 'Alice', password: 'pässword', isAdmin: true });
    await store.close();
    const res = await fetch(`${server?.url}/Users/AuthenticateByName`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        Authorization: 'MediaServer Client="Web", Device="Firefox", DeviceId="abc", Version="10.11.0"',
      },
      body: JSON.stringify({ Username: 'alice', Pw: 'pässword' }),
    });
    expect(res.status).toBe(200);
    const result = (await res.json()) as {
      AccessToken: string;
      ServerId: string;
      User: { ServerId: string };
    };
    expect(result).toMatchObject({
      AccessToken: expect.stringMatching(/^[0-9a-f]{32}$/),
      User: { Name: 'Alice', HasPassword: true, Policy: { IsAdministrator: true } },
    });
    expect(result.User.ServerId).toBe(result.ServerId);
    expect(
      (await fetch(`${server?.url}/System/Configuration`, { headers: authHeader(result.AccessToken) }))
        .status,
    ).toBe(200);
  });

  it.each([
    [{ Username: 'alice' }],
    [{ Pw: 'x' }],
    [{ Username: '', Pw: 'x' }],
    [{ Username: 'a', Pw: { text: 'x' } }],
  ])('refuses %j with 400', async (body) => {
    fixture = makeFixture();
    await boot();
    const res = await fetch(`${server?.url}/Users/AuthenticateByName`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 400, title: 'One or more validation errors occurred.' });
  });
});

describe('errors', () => {
  async function failing(error: unknown): Promise<Response> {
    const app = express();
    app.use((req, _res, next) => {
      req.log = silentLogger();
      next();
    });
    app.get('/', () => {
      throw error;
    });
    app.use(errorMapper);
    const running = await listen(app, 0);
    try {
      return await fetch(running.url);
    } finally {
      await running.close();
    }
  }

  it('answers a response that breaks the document with an empty 500', async () => {
    const res = await failing({
      status: 500,
      errors: [{ path: '/response/remaining', message: 'must be >= 0' }],
    });
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('');
  });

  it('answers an unexpected error with an empty 500 (no stack, no message)', async () => {
    const res = await failing(new Error('SQLITE_CORRUPT: database disk image is malformed'));
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('');
  });
});

describe('response validation', () => {
  it('turns an answer that breaks the document into an empty 500 while validation is on', async () => {
    fixture = makeFixture();
    const config = loadConfig(fixture.env);
    const store = openStore(fixture.dataDir);
    const apiKey = (await createApiKey(store, 'validation')).key;
    const queue = await TranscriptionQueue.open({
      store,
      transcribe: async () => '',
      ffmpeg: 'ffmpeg',
      mediaDir: fixture.mediaDir,
      workers: 1,
      maxAttempts: 1,
      jobTimeoutMs: 1000,
      logger: silentLogger(),
    });
    const settings = await loadServerSettings(store, config);
    const { app } = createSubtitlesApp({
      config,
      store,
      queue,
      probe: hostProbe(),
      settings,
      selfUrl: () => undefined,
      logger: silentLogger(),
    });
    const running = await listen(app, 0);
    try {
      const good = await fetch(`${running.url}/Plugins/Subtitles/Queue`, { headers: authHeader(apiKey) });
      expect(good.status).toBe(200);
      // A queue that reports a negative count: the validator must stop it.
      const truthful = queue.status.bind(queue);
      queue.status = () => ({ ...truthful(), remaining: -1 });
      const bad = await fetch(`${running.url}/Plugins/Subtitles/Queue`, { headers: authHeader(apiKey) });
      expect(bad.status).toBe(500);
      expect(await bad.text()).toBe('');
    } finally {
      await running.close();
      await store.close();
    }
  });
});
