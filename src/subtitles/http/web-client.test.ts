/**
 * The media server's official web client (release 10.11), from sign-in to the plugin's settings page in
 * its dashboard: every request it makes on that path, in its order, with its headers and bodies, and the
 * fields it reads from each answer (as its source does: the legacy client's `MediaBrowser` header, the
 * SDK's URL-encoded one, the socket's keep-alive, the plugin list joined to the settings pages by id,
 * and the settings page as a `data-role="page"` view with its controller). Then the official SDK's path to
 * the same plugin list.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Jellyfin } from 'jellyfin-sdk-1';
import { getPluginApi } from 'jellyfin-sdk-1/lib/utils/api/plugin-api.js';
import { getUserApi } from 'jellyfin-sdk-1/lib/utils/api/user-api.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { installDemoLibrary } from '../domain/demo-library';
import { type Server, startSeededServer } from '../test-support';

const LEGACY = (token?: string) =>
  `MediaBrowser Client="Jellyfin Web", Device="Firefox", DeviceId="web-client-test", Version="10.11.11"${
    token ? `, Token="${token}"` : ''
  }`;
/** The SDK's form: every value URL-encoded. */
const ENCODED = (token: string) =>
  `MediaBrowser Client="Jellyfin%20Web", Device="Firefox", DeviceId="web-client-test", Version="10.11.11", Token="${token}"`;

type Json = Record<string, unknown>;

describe('the web client’s path from sign-in to the plugin’s settings page', () => {
  let server: Server;
  let token = '';
  let userId = '';
  const get = async (path: string, authorization?: string) => {
    const res = await fetch(`${server.url}${path}`, {
      headers: authorization ? { Authorization: authorization } : {},
    });
    return { status: res.status, type: res.headers.get('content-type') ?? '', res };
  };
  const json = async (path: string, authorization = LEGACY(token)) => {
    const { status, res } = await get(path, authorization);
    expect(status, path).toBe(200);
    return (await res.json()) as Json & Json[];
  };

  beforeAll(async () => {
    server = await startSeededServer();
  });
  afterAll(() => server.close());

  it('1. connects: the public system information it checks', async () => {
    const info = await json('/System/Info/Public', '');
    expect(info).toMatchObject({ StartupWizardCompleted: true, ServerName: expect.any(String) });
    const [major = 0, minor = 0] = String(info.Version).split('.').map(Number);
    expect(major * 100 + minor, 'at least 10.10').toBeGreaterThanOrEqual(1010);
    expect(info.Id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('2. shows the sign-in page: no Quick Connect, no public users, no disclaimer', async () => {
    expect(await json('/QuickConnect/Enabled', '')).toBe(false);
    expect(await json('/users/public', '')).toEqual([]);
    expect(await json('/Branding/Configuration', '')).toMatchObject({ LoginDisclaimer: null });
  });

  it('3. signs in with the legacy client header and reads the token, the server and the user', async () => {
    const res = await fetch(`${server.url}/Users/authenticatebyname`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: LEGACY() },
      body: JSON.stringify({ Username: 'admin', Pw: 'correct horse battery staple' }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      AccessToken: string;
      ServerId: string;
      User: { Id: string; ServerId: string };
    };
    expect(body.User.ServerId).toBe(body.ServerId);
    token = body.AccessToken;
    userId = body.User.Id;
  });

  it('4. reports its capabilities (204, the answer unread)', async () => {
    const res = await fetch(`${server.url}/Sessions/Capabilities/Full`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: LEGACY(token) },
      body: JSON.stringify({
        PlayableMediaTypes: ['Audio', 'Video'],
        SupportedCommands: ['DisplayMessage', 'SetVolume'],
        SupportsPersistentIdentifier: false,
        SupportsMediaControl: true,
      }),
    });
    expect(res.status).toBe(204);
  });

  it('5. opens the socket: ForceKeepAlive with a number, then a KeepAlive for each of its own, ids all new', async () => {
    const ws = new WebSocket(
      `${server.url.replace(/^http/, 'ws')}/socket?api_key=${token}&deviceId=web-client-test`,
    );
    const messages: Json[] = [];
    const next = () =>
      new Promise<Json>((resolve, reject) => {
        ws.once('message', (data) => resolve(JSON.parse(data.toString()) as Json));
        ws.once('close', () => reject(new Error('closed')));
      });
    messages.push(await next());
    expect(messages[0]).toMatchObject({ MessageType: 'ForceKeepAlive', Data: 60 });
    for (let i = 0; i < 2; i++) {
      ws.send(JSON.stringify({ MessageType: 'KeepAlive' }));
      messages.push(await next());
      expect(messages.at(-1)).toMatchObject({ MessageType: 'KeepAlive' });
    }
    expect(new Set(messages.map((m) => m.MessageId)).size).toBe(3);
    ws.close();
    // Without a valid token there is no socket.
    const refused = new WebSocket(`${server.url.replace(/^http/, 'ws')}/socket?api_key=nope`);
    const status = await new Promise<number>((resolve) =>
      refused.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(401);
  });

  it('5b. answers a request asking for h2c beside the socket as the HTTP/1.1 request it also is', async () => {
    // Java's HTTP client (the Java SDK's) asks every plain-http request to upgrade to h2c.
    const { hostname, port } = new URL(server.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () =>
        socket.write(
          'GET /System/Info/Public HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings, close\r\n' +
            'Upgrade: h2c\r\nHTTP2-Settings: AAEAAEAAAAIAAAABAAMAAABkAAQBAAAAAAUAAEAA\r\n\r\n',
        ),
      );
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('"StartupWizardCompleted":true');
  });

  it('6. reads and saves its display settings, which it needs to finish signing in', async () => {
    const path = `/DisplayPreferences/usersettings?userId=${userId}&client=emby`;
    const prefs = await json(path);
    expect(prefs).toMatchObject({ Id: 'usersettings', CustomPrefs: {}, Client: 'emby' });
    const saved = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: LEGACY(token) },
      body: JSON.stringify({ ...prefs, CustomPrefs: { homesection0: 'smalllibrarytiles' } }),
    });
    expect(saved.status).toBe(204);
    expect((await json(path)).CustomPrefs).toEqual({ homesection0: 'smalllibrarytiles' });
  });

  it('7. reads the user it signed in as, an administrator, so the dashboard is open to it', async () => {
    const user = await json(`/Users/${userId}`);
    expect(user).toMatchObject({ Id: userId, Name: 'admin', Policy: { IsAdministrator: true } });
    expect(user.ServerId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('7b. lands on its home page: no library views to list (another user’s only for an administrator)', async () => {
    const empty = { Items: [], TotalRecordCount: 0, StartIndex: 0 };
    expect(await json(`/UserViews?userId=${userId}`)).toEqual(empty);
    expect(await json('/UserViews', ENCODED(token))).toEqual(empty);
    expect((await get('/UserViews?userId=not-an-id', LEGACY(token))).status).toBe(400);
  });

  it('8. measures the connection: where it is, and bytes to time', async () => {
    expect(await json('/System/Endpoint')).toEqual({ IsLocal: true, IsInNetwork: true });
    const { status, res } = await get('/Playback/BitrateTest?Size=500000', LEGACY(token));
    expect(status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(500_000);
  });

  it('9. opens the dashboard with the SDK’s encoded header: its figures', async () => {
    expect(await json('/System/Info', ENCODED(token))).toMatchObject({ ServerName: expect.any(String) });
    expect(await json('/Items/Counts', ENCODED(token))).toMatchObject({ ItemCount: expect.any(Number) });
    expect(await json('/ScheduledTasks?isHidden=false', ENCODED(token))).toEqual([]);
    const sessions = await json('/Sessions?activeWithinSeconds=960', ENCODED(token));
    expect(sessions.some((s) => s.UserId === userId && s.Client === 'Jellyfin Web')).toBe(true);
    const minDate = new Date(Date.now() - 86_400_000).toISOString();
    for (const hasUserId of [true, false]) {
      const log = await json(
        `/System/ActivityLog/Entries?startIndex=0&limit=7&minDate=${encodeURIComponent(minDate)}&hasUserId=${hasUserId}`,
        ENCODED(token),
      );
      expect(log).toEqual({ Items: [], TotalRecordCount: 0, StartIndex: 0 });
    }
    const storage = await json('/System/Info/Storage', ENCODED(token));
    expect(storage.ProgramDataFolder).toMatchObject({
      Path: expect.any(String),
      UsedSpace: expect.any(Number),
    });
    expect(await json('/web/ConfigurationPages?enableInMainMenu=true', ENCODED(token))).toEqual([]);
  });

  it('10. lists the plugins: the plugin, its settings page joined by id, no catalogue', async () => {
    const [pages, packages, plugins] = await Promise.all([
      json('/web/ConfigurationPages', ENCODED(token)),
      json('/Packages', ENCODED(token)),
      json('/Plugins', ENCODED(token)),
    ]);
    expect(packages).toEqual([]);
    expect(plugins).toHaveLength(1);
    const plugin = plugins[0] as Json;
    expect(plugin).toMatchObject({ Name: 'Subtitles', Status: 'Active', HasImage: false });
    const page = pages.find((p) => p.PluginId === plugin.Id);
    expect(page).toMatchObject({ Name: 'subtitles-page' });
  });

  it('11. opens the settings page: a data-role="page" div whose controller is a JavaScript module', async () => {
    const { status, type, res } = await get('/web/configurationpage?name=subtitles-page', LEGACY(token));
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/html/);
    const html = await res.text();
    // What the web client requires of it: the exact attribute on a div, and a controller named with __plugin/.
    expect(html).toMatch(/<div data-role="page"[^>]*>/);
    const controller = /data-controller="__plugin\/([^"]+)"/.exec(html)?.[1];
    expect(controller).toBe('subtitles-settings.js');
    // The controller is imported without credentials; it is served as a script (503 until the pages are built).
    const script = await get(`/web/configurationpage?name=${controller}`);
    expect([200, 503]).toContain(script.status);
    if (script.status === 200) expect(script.type).toMatch(/^text\/javascript/);
  });
});

describe('the official SDK’s path to the plugin list', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startSeededServer();
  });
  afterAll(() => server.close());

  it('signs in, reads itself and lists the plugins', async () => {
    const jellyfin = new Jellyfin({
      clientInfo: { name: 'SDK test', version: '1.0.0' },
      deviceInfo: { name: 'vitest', id: 'sdk-web-client-test' },
    });
    const api = jellyfin.createApi(server.url);
    const auth = await api.authenticateUserByName('admin', 'correct horse battery staple');
    expect(auth.data.AccessToken).toBeTruthy();
    const me = await getUserApi(api).getCurrentUser();
    expect(me.data).toMatchObject({ Name: 'admin', Policy: { IsAdministrator: true } });
    const plugins = await getPluginApi(api).getPlugins();
    expect(plugins.data.map((p) => p.Name)).toEqual(['Subtitles']);
  });
});

describe('the host’s start page', () => {
  it('links the plugin’s settings page, which answers', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'specyard-start-page-'));
    try {
      const { index } = installDemoLibrary({
        webDir: path.join(dir, 'web'),
        mediaDir: path.join(dir, 'media'),
      });
      const html = readFileSync(index, 'utf8');
      const links = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1] as string);
      expect(links).toContain('configurationpage?name=subtitles.html');
      const server = await startSeededServer({ SUBTITLES_WEB_DIR: path.join(dir, 'web') });
      try {
        for (const link of links) {
          const res = await fetch(new URL(link, `${server.url}/web/index.html`));
          // 503: the settings page is not built in this tier; every link reaches a route.
          expect([200, 503], link).toContain(res.status);
        }
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
