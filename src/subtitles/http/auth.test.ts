/**
 * The auth matrix: every route × every way of sending (or not sending) credentials, on servers with
 * legacy authorization on and off, with a base path, and with the plugin not loaded. The expected
 * access of each route comes from the table below (the seed's rule and the media server's own routes),
 * never from the gate or the document.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundledDocument } from '../../common/documents';
import { documentedOperations } from '../../common/http/operations';
import { writeExampleIcon } from '../../common/testing/example-pages';
import {
  type Fixture,
  makeFixture,
  makeMedia,
  type Server,
  seedAccounts,
  startServer,
} from '../test-support';

/**
 * Who may call each route. The seed: "Every endpoint requires the administrator role" (the three
 * diagnostics, and the plugin's own queue routes and the server configuration with them). The media
 * server: sign-in, public system info and the web client need no credentials; any signed-in user may
 * sign out.
 */
const ACCESS: Record<string, 'public' | 'user' | 'admin'> = {
  'GET /Plugins/{plugin}/Setup/Status': 'admin',
  'GET /Plugins/{plugin}/Queue': 'admin',
  'GET /Plugins/{plugin}/Setup/InjectionStatus': 'admin',
  'POST /Plugins/{plugin}/Queue/Items': 'admin',
  'POST /Plugins/{plugin}/Queue/Scan': 'admin',
  'GET /System/Configuration': 'admin',
  'POST /System/Configuration': 'admin',
  'GET /System/Info': 'admin',
  'POST /Sessions/Logout': 'user',
  'POST /Users/AuthenticateByName': 'public',
  'GET /System/Info/Public': 'public',
  'GET /': 'public',
  'GET /web/index.html': 'public',
  'GET /web/configurationpage': 'public',
  'GET /favicon.ico': 'public',
  'GET /QuickConnect/Enabled': 'public',
  'GET /Users/Public': 'public',
  'GET /Branding/Configuration': 'public',
  'GET /Users/Me': 'user',
  'GET /Users/{userId}': 'user',
  'GET /UserViews': 'user',
  'POST /Sessions/Capabilities/Full': 'user',
  'GET /DisplayPreferences/{displayPreferencesId}': 'user',
  'POST /DisplayPreferences/{displayPreferencesId}': 'user',
  'GET /System/Endpoint': 'user',
  'GET /Playback/BitrateTest': 'user',
  'GET /Items/Counts': 'user',
  'GET /web/ConfigurationPages': 'user',
  'GET /socket': 'user',
  'GET /Sessions': 'admin',
  'GET /System/ActivityLog/Entries': 'admin',
  'GET /System/Info/Storage': 'admin',
  'GET /ScheduledTasks': 'admin',
  'GET /Plugins': 'admin',
  'GET /Packages': 'admin',
};

interface Route {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  ok: number;
}

const admin = (legacy: boolean): Route[] => [
  { method: 'GET', path: '/Plugins/Subtitles/Setup/Status', ok: 200 },
  { method: 'GET', path: '/Plugins/Subtitles/Queue', ok: 200 },
  { method: 'GET', path: '/Plugins/Subtitles/Setup/InjectionStatus', ok: 200 },
  {
    method: 'POST',
    path: '/Plugins/Subtitles/Queue/Items',
    body: { path: 'clip.mka', language: 'en' },
    ok: 202,
  },
  { method: 'POST', path: '/Plugins/Subtitles/Queue/Scan', ok: 202 },
  { method: 'GET', path: '/System/Configuration', ok: 200 },
  { method: 'POST', path: '/System/Configuration', body: { EnableLegacyAuthorization: legacy }, ok: 204 },
  { method: 'GET', path: '/System/Info', ok: 200 },
  { method: 'GET', path: '/Sessions', ok: 200 },
  { method: 'GET', path: '/System/ActivityLog/Entries', ok: 200 },
  { method: 'GET', path: '/System/Info/Storage', ok: 200 },
  { method: 'GET', path: '/ScheduledTasks', ok: 200 },
  { method: 'GET', path: '/Plugins', ok: 200 },
  { method: 'GET', path: '/Packages', ok: 200 },
];

const keyOf = (route: Route) =>
  `${route.method} ${route.path.replace('/Plugins/Subtitles/', '/Plugins/{plugin}/')}`;

describe('the access table', () => {
  it('names every documented operation (a new route needs a row)', () => {
    const documented = documentedOperations(loadBundledDocument('subtitles')).map(
      (op) => `${op.method.toUpperCase()} ${op.path}`,
    );
    expect(documented.sort()).toEqual(Object.keys(ACCESS).sort());
  });

  it('has a sample request below for every route', () => {
    const admins = Object.keys(ACCESS).filter((key) => ACCESS[key] === 'admin');
    expect(admin(true).map(keyOf).sort()).toEqual(admins.sort());
    const others = Object.keys(ACCESS).filter((key) => ACCESS[key] !== 'admin');
    expect(Object.keys(OTHER_SAMPLES).sort()).toEqual(others.sort());
  });
});

interface Host {
  fixture: Fixture;
  server: Server;
  adminKey: string;
  revokedKey: string;
  adminSession: string;
  viewerSession: string;
}

const clientHeader = (deviceId: string) =>
  `MediaServer Client="auth tests", Device="vitest", DeviceId="${deviceId}", Version="1.0.0"`;

async function signIn(
  server: Server,
  name: string,
  password: string,
  deviceId = 'auth-tests',
): Promise<string> {
  const res = await fetch(`${server.url}/Users/AuthenticateByName`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', Authorization: clientHeader(deviceId) },
    body: JSON.stringify({ Username: name, Pw: password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { AccessToken: string }).AccessToken;
}

async function host(env: Record<string, string> = {}): Promise<Host> {
  const fixture = makeFixture();
  makeMedia(path.join(fixture.mediaDir, 'clip.mka'));
  const { adminKey, revokedKey } = await seedAccounts(fixture.dataDir);
  const server = await startServer(
    { ...fixture.env, SUBTITLES_QUEUE_MAX_ATTEMPTS: '1', ...env },
    { webDist: icon.distRoot },
  );
  return {
    fixture,
    server,
    adminKey,
    revokedKey,
    adminSession: await signIn(server, 'admin', 'correct horse battery staple'),
    viewerSession: await signIn(server, 'viewer', 'viewer password'),
  };
}

interface Credential {
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

async function call(
  origin: string,
  route: Route,
  credential: Credential = {},
  prefix = '',
): Promise<Response> {
  const query = new URLSearchParams(credential.query ?? {}).toString();
  const headers: Record<string, string> = { ...(credential.headers ?? {}) };
  if (route.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${origin}${prefix}${route.path}${query ? `?${query}` : ''}`, {
    method: route.method,
    headers,
    redirect: 'manual',
    body: route.body === undefined ? undefined : JSON.stringify(route.body),
  });
}

async function expectEmpty(res: Response, status: number): Promise<void> {
  expect(res.status).toBe(status);
  expect(await res.text()).toBe('');
  expect(res.headers.get('content-type')).toBeNull();
}

const WRONG_KEY = '0123456789abcdef0123456789abcdef';
const token = (value: string) => ({ headers: { Authorization: `MediaServer Token="${value}"` } });

let legacyOn: Host;
let legacyOff: Host;
let prefixed: Host;
let unloaded: Host;

let icon: Awaited<ReturnType<typeof writeExampleIcon>>;

beforeAll(async () => {
  icon = await writeExampleIcon('subtitles');
  [legacyOn, legacyOff, prefixed, unloaded] = await Promise.all([
    host(),
    host({ SUBTITLES_SERVER_VERSION: '12.0' }),
    host({ SUBTITLES_BASE_PATH: '/jellyfin' }),
    host({ SUBTITLES_PLUGIN_ENABLED: 'false' }),
  ]);
});

afterAll(async () => {
  for (const h of [legacyOn, legacyOff, prefixed, unloaded]) {
    await h?.server.close();
    h?.fixture.remove();
  }
  await icon?.remove();
});

describe.each(admin(true).map((route) => [`${route.method} ${route.path}`, route] as const))(
  '%s',
  (_name, route) => {
    const cases: [string, (h: Host) => Credential, number | 'ok'][] = [
      ['no credentials', () => ({}), 401],
      ['a wrong key', () => token(WRONG_KEY), 401],
      ['a revoked key', (h) => token(h.revokedKey), 401],
      ['MediaServer Token="<key>"', (h) => token(h.adminKey), 'ok'],
      [
        'MediaServer Token=<key> (no quotes)',
        (h) => ({ headers: { Authorization: `MediaServer Token=${h.adminKey}` } }),
        'ok',
      ],
      [
        'mediaserver token scheme in lower case',
        (h) => ({ headers: { Authorization: `mediaserver Token=${h.adminKey}` } }),
        'ok',
      ],
      [
        'MediaBrowser Token="<key>"',
        (h) => ({ headers: { Authorization: `MediaBrowser Token="${h.adminKey}"` } }),
        'ok',
      ],
      [
        'X-Media-Token with legacy authorization on',
        (h) => ({ headers: { 'X-Media-Token': h.adminKey } }),
        'ok',
      ],
      [
        'X-Emby-Token with legacy authorization on',
        (h) => ({ headers: { 'X-Emby-Token': h.adminKey } }),
        'ok',
      ],
      [
        'X-MediaBrowser-Token with legacy authorization on',
        (h) => ({ headers: { 'X-MediaBrowser-Token': h.adminKey } }),
        'ok',
      ],
      [
        'X-Emby-Authorization: MediaBrowser Token with legacy authorization on',
        (h) => ({ headers: { 'X-Emby-Authorization': `MediaBrowser Token="${h.adminKey}"` } }),
        'ok',
      ],
      [
        'the Emby scheme word with legacy authorization on',
        (h) => ({ headers: { Authorization: `Emby Token="${h.adminKey}"` } }),
        'ok',
      ],
      ['the ApiKey query parameter', (h) => ({ query: { ApiKey: h.adminKey } }), 'ok'],
      [
        'a valid Authorization header and an empty ApiKey',
        (h) => ({ ...token(h.adminKey), query: { ApiKey: '' } }),
        'ok',
      ],
      [
        'a valid legacy header and an empty ApiKey',
        (h) => ({ headers: { 'X-Media-Token': h.adminKey }, query: { ApiKey: '' } }),
        'ok',
      ],
      ['an empty ApiKey alone', () => ({ query: { ApiKey: '' } }), 401],
      ['a wrong key in ApiKey', () => ({ query: { ApiKey: WRONG_KEY } }), 401],
      ['an api_key query parameter (wrong name)', (h) => ({ query: { api_key: h.adminKey } }), 401],
      ['an apikey query parameter (wrong case)', (h) => ({ query: { apikey: h.adminKey } }), 401],
      ['a Bearer header', (h) => ({ headers: { Authorization: `Bearer ${h.adminKey}` } }), 401],
      ['an admin session', (h) => token(h.adminSession), 'ok'],
      [
        'an admin session via MediaBrowser',
        (h) => ({ headers: { Authorization: `MediaBrowser Token="${h.adminSession}"` } }),
        'ok',
      ],
      ['a non-admin session', (h) => token(h.viewerSession), 403],
    ];

    it.each(cases)('with %s', async (_case, credential, expected) => {
      const res = await call(legacyOn.server.url, route, credential(legacyOn));
      if (expected === 'ok') {
        expect(res.status).toBe(route.ok);
        await res.arrayBuffer();
      } else {
        await expectEmpty(res, expected);
      }
    });

    const legacyRoute = admin(false).find((r) => r.method === route.method && r.path === route.path) ?? route;

    it.each([
      ['X-Media-Token', (key: string) => ({ 'X-Media-Token': key })],
      ['X-Emby-Token', (key: string) => ({ 'X-Emby-Token': key })],
      ['X-MediaBrowser-Token', (key: string) => ({ 'X-MediaBrowser-Token': key })],
      ['X-Emby-Authorization', (key: string) => ({ 'X-Emby-Authorization': `MediaBrowser Token="${key}"` })],
      ['the Emby scheme word', (key: string) => ({ Authorization: `Emby Token="${key}"` })],
    ] as const)('with %s while legacy authorization is off (12.0): 401', async (_form, headers) => {
      await expectEmpty(
        await call(legacyOff.server.url, legacyRoute, { headers: headers(legacyOff.adminKey) }),
        401,
      );
    });

    it('with an admin key while legacy authorization is off (12.0)', async () => {
      expect((await call(legacyOff.server.url, legacyRoute, token(legacyOff.adminKey))).status).toBe(
        route.ok,
      );
    });

    it('answers 404 without the configured base path, with or without a key', async () => {
      await expectEmpty(await call(prefixed.server.origin, route, token(prefixed.adminKey)), 404);
      await expectEmpty(await call(prefixed.server.origin, route), 404);
      await expectEmpty(await call(prefixed.server.origin, route, token(prefixed.adminKey), '/emby'), 404);
      expect((await call(prefixed.server.origin, route, token(prefixed.adminKey), '/jellyfin')).status).toBe(
        route.ok,
      );
      await expectEmpty(await call(prefixed.server.origin, route, {}, '/jellyfin'), 401);
    });

    it('answers 404 under /web, with or without a key', async () => {
      await expectEmpty(await call(legacyOn.server.url, route, token(legacyOn.adminKey), '/web'), 404);
      await expectEmpty(await call(legacyOn.server.url, route, {}, '/web'), 404);
      await expectEmpty(
        await call(prefixed.server.origin, route, token(prefixed.adminKey), '/jellyfin/web'),
        404,
      );
    });

    it('answers the same in another letter case (as the media server matches routes)', async () => {
      for (const spelling of [route.path.toLowerCase(), route.path.toUpperCase()]) {
        const other = { ...route, path: spelling };
        expect((await call(legacyOn.server.url, other, token(legacyOn.adminKey))).status).toBe(route.ok);
        await expectEmpty(await call(legacyOn.server.url, other), 401);
        await expectEmpty(await call(legacyOn.server.url, other, token(legacyOn.viewerSession)), 403);
      }
      expect(
        (
          await call(
            prefixed.server.origin,
            { ...route, path: route.path.toLowerCase() },
            token(prefixed.adminKey),
            '/JellyFin',
          )
        ).status,
      ).toBe(route.ok);
    });

    if (route.path.startsWith('/Plugins/')) {
      it('answers 404 while the plugin is not loaded, with or without a key', async () => {
        await expectEmpty(await call(unloaded.server.url, route, token(unloaded.adminKey)), 404);
        await expectEmpty(await call(unloaded.server.url, route), 404);
      });

      it('answers 404 for another plugin segment, with or without a key', async () => {
        const other = { ...route, path: route.path.replace('/Subtitles/', '/OtherPlugin/') };
        await expectEmpty(await call(legacyOn.server.url, other, token(legacyOn.adminKey)), 404);
        await expectEmpty(await call(legacyOn.server.url, other), 404);
      });
    } else {
      it('still answers while the plugin is not loaded (it is the server’s route)', async () => {
        expect((await call(unloaded.server.url, route, token(unloaded.adminKey))).status).toBe(route.ok);
      });
    }
  },
);

/** A user id no user has: a non-administrator may not read it (403), an API key finds nobody (404). */
const NOBODY = '0123456789abcdef0123456789abcdef';

/**
 * One request per route of the access table that is not an admin route (those have the matrix above);
 * `okWithKey` where an API key, which is no user, gets another answer than a signed-in user, `okAsViewer`
 * where the viewer does.
 */
const OTHER_SAMPLES: Record<
  string,
  Route & { headers?: (token: string) => Record<string, string>; okWithKey?: number; okAsViewer?: number }
> = {
  'POST /Sessions/Logout': { method: 'POST', path: '/Sessions/Logout', ok: 204 },
  'POST /Users/AuthenticateByName': {
    method: 'POST',
    path: '/Users/AuthenticateByName',
    body: { Username: 'admin', Pw: 'correct horse battery staple' },
    ok: 200,
    // The sign-in reads the client fields from the same header; a token there is ignored.
    headers: (t) => ({ Authorization: `${clientHeader('table')}, Token="${t}"` }),
  },
  'GET /System/Info/Public': { method: 'GET', path: '/System/Info/Public', ok: 200 },
  'GET /': { method: 'GET', path: '/', ok: 302 },
  'GET /web/index.html': { method: 'GET', path: '/web/index.html', ok: 200 },
  'GET /web/configurationpage': { method: 'GET', path: '/web/configurationpage?name=subtitles.js', ok: 200 },
  'GET /favicon.ico': { method: 'GET', path: '/favicon.ico', ok: 200 },
  'GET /QuickConnect/Enabled': { method: 'GET', path: '/QuickConnect/Enabled', ok: 200 },
  'GET /Users/Public': { method: 'GET', path: '/Users/Public', ok: 200 },
  'GET /Branding/Configuration': { method: 'GET', path: '/Branding/Configuration', ok: 200 },
  'GET /Users/Me': { method: 'GET', path: '/Users/Me', ok: 200, okWithKey: 400 },
  'GET /Users/{userId}': { method: 'GET', path: `/Users/${NOBODY}`, ok: 404, okAsViewer: 403 },
  'GET /UserViews': { method: 'GET', path: '/UserViews', ok: 200, okWithKey: 400 },
  'POST /Sessions/Capabilities/Full': {
    method: 'POST',
    path: '/Sessions/Capabilities/Full',
    body: { PlayableMediaTypes: ['Video'] },
    ok: 204,
  },
  'GET /DisplayPreferences/{displayPreferencesId}': {
    method: 'GET',
    path: '/DisplayPreferences/usersettings?client=emby',
    ok: 200,
    okWithKey: 400,
  },
  'POST /DisplayPreferences/{displayPreferencesId}': {
    method: 'POST',
    path: '/DisplayPreferences/usersettings?client=emby',
    body: { Id: 'usersettings', CustomPrefs: {}, Client: 'emby' },
    ok: 204,
    okWithKey: 400,
  },
  'GET /System/Endpoint': { method: 'GET', path: '/System/Endpoint', ok: 200 },
  'GET /Playback/BitrateTest': { method: 'GET', path: '/Playback/BitrateTest?Size=1000', ok: 200 },
  'GET /Items/Counts': { method: 'GET', path: '/Items/Counts', ok: 200 },
  'GET /web/ConfigurationPages': { method: 'GET', path: '/web/ConfigurationPages', ok: 200 },
  // Without the upgrade it is the documented 400 (the socket itself: socket.test.ts).
  'GET /socket': { method: 'GET', path: '/socket', ok: 400 },
};

describe.each(Object.entries(OTHER_SAMPLES))('%s, as the access table says', (key, route) => {
  const level = ACCESS[key];
  const send = (t: string) => (route.headers ? { headers: route.headers(t) } : token(t));

  it('has a row in the table', () => {
    expect(level === 'public' || level === 'user').toBe(true);
  });

  it('answers without credentials: public → success, otherwise 401', async () => {
    const res = await call(legacyOn.server.url, route, route.headers ? { headers: route.headers('') } : {});
    expect(res.status).toBe(level === 'public' ? route.ok : 401);
  });

  it('answers a non-admin session and an API key alike: success', async () => {
    const viewer = await signIn(legacyOn.server, 'viewer', 'viewer password', `table-${key}`);
    expect((await call(legacyOn.server.url, route, send(viewer))).status).toBe(route.okAsViewer ?? route.ok);
    expect((await call(legacyOn.server.url, route, send(legacyOn.adminKey))).status).toBe(
      route.okWithKey ?? route.ok,
    );
  });

  it('answers a wrong token: public → success, otherwise 401', async () => {
    const res = await call(legacyOn.server.url, route, send(WRONG_KEY));
    expect(res.status).toBe(level === 'public' ? route.ok : 401);
  });
});

describe('public routes and unknown paths', () => {
  it('serves the web client and signs in without credentials', async () => {
    expect(
      (await call(legacyOn.server.url, { method: 'GET', path: '/web/index.html', ok: 200 })).status,
    ).toBe(200);
    expect(
      (
        await call(
          prefixed.server.origin,
          { method: 'GET', path: '/web/index.html', ok: 200 },
          {},
          '/jellyfin',
        )
      ).status,
    ).toBe(200);
    await expectEmpty(
      await call(prefixed.server.origin, { method: 'GET', path: '/web/index.html', ok: 200 }),
      404,
    );
  });

  it('answers a wrong password and an unknown user alike: 401, empty', async () => {
    for (const body of [
      { Username: 'admin', Pw: 'wrong' },
      { Username: 'nobody', Pw: 'correct horse battery staple' },
    ]) {
      await expectEmpty(
        await call(
          legacyOn.server.url,
          { method: 'POST', path: '/Users/AuthenticateByName', body, ok: 200 },
          { headers: { Authorization: clientHeader('wrong-password') } },
        ),
        401,
      );
    }
  });

  it.each([
    ['POST', '/'],
    ['GET', '/Plugins/Subtitles/Queue/Items'],
    ['DELETE', '/Plugins/Subtitles/Queue'],
  ] as const)(
    '%s %s, a path served under other methods, answers 405 with Allow, with or without a key',
    async (method, route) => {
      for (const credential of [{}, token(legacyOn.adminKey)]) {
        const res = await call(
          legacyOn.server.url,
          { method: method as 'GET', path: route, ok: 0 },
          credential,
        );
        await expectEmpty(res, 405);
        expect(res.headers.get('allow')).toBeTruthy();
      }
    },
  );

  it.each([
    ['GET', '/Plugins/Subtitles'],
    ['GET', '/web/other.html'],
    ['GET', '/System/Info/Private'],
  ] as const)('%s %s answers 404 with or without a key', async (method, route) => {
    for (const credential of [{}, token(legacyOn.adminKey)]) {
      await expectEmpty(
        await call(legacyOn.server.url, { method: method as 'GET', path: route, ok: 0 }, credential),
        404,
      );
    }
  });
});

describe('the legacy authorization switch', () => {
  it('turns the legacy header off and on again, for the next request', async () => {
    const set = (enabled: boolean) =>
      call(legacyOn.server.url, admin(enabled)[6] as Route, token(legacyOn.adminKey));
    const legacyHeader = { headers: { 'X-Media-Token': legacyOn.adminKey } };
    const queue = admin(true)[1] as Route;
    expect((await set(false)).status).toBe(204);
    await expectEmpty(await call(legacyOn.server.url, queue, legacyHeader), 401);
    const config = await call(legacyOn.server.url, admin(true)[5] as Route, token(legacyOn.adminKey));
    expect(await config.json()).toEqual({ EnableLegacyAuthorization: false });
    expect((await set(true)).status).toBe(204);
    expect((await call(legacyOn.server.url, queue, legacyHeader)).status).toBe(200);
  });

  it('is not for a non-admin user', async () => {
    await expectEmpty(
      await call(legacyOn.server.url, admin(false)[6] as Route, token(legacyOn.viewerSession)),
      403,
    );
    const config = await call(legacyOn.server.url, admin(true)[5] as Route, token(legacyOn.adminKey));
    expect(await config.json()).toEqual({ EnableLegacyAuthorization: true });
  });
});

const signInRoute = (body: unknown): Route => ({
  method: 'POST',
  path: '/Users/AuthenticateByName',
  body,
  ok: 200,
});
const ADMIN_LOGIN = { Username: 'admin', Pw: 'correct horse battery staple' };

describe('the media server routes clients call first', () => {
  it('serves GET /System/Info/Public without credentials, in any letter case and under the base path', async () => {
    for (const [h, prefix] of [
      [legacyOn, ''],
      [prefixed, '/jellyfin'],
    ] as const) {
      const origin = prefix ? h.server.origin : h.server.url;
      for (const spelling of ['/System/Info/Public', '/system/info/public']) {
        const res = await call(origin, { method: 'GET', path: spelling, ok: 200 }, {}, prefix);
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({
          Version: '10.11.0',
          ProductName: 'Jellyfin Server',
          Id: expect.stringMatching(/^[0-9a-f]{32}$/),
          StartupWizardCompleted: true,
          LocalAddress: `${h.server.origin}${prefix}`,
        });
      }
    }
    const off = await call(legacyOff.server.url, { method: 'GET', path: '/System/Info/Public', ok: 200 });
    expect(((await off.json()) as { Version: string }).Version).toBe('12.0.0');
  });

  it('signs in at the lower-case path the web client posts to', async () => {
    const res = await call(
      legacyOn.server.url,
      { ...signInRoute(ADMIN_LOGIN), path: '/users/authenticatebyname' },
      { headers: { Authorization: clientHeader('lower-case') } },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, Record<string, unknown>>;
    expect(body.User).toMatchObject({
      Name: 'admin',
      HasConfiguredPassword: true,
      Policy: { IsAdministrator: true },
    });
    expect(body.SessionInfo).toMatchObject({
      Client: 'auth tests',
      DeviceId: 'lower-case',
      DeviceName: 'vitest',
      ApplicationVersion: '1.0.0',
      UserName: 'admin',
    });
  });

  it.each([
    ['no authorization header', {}],
    ['a token but no client fields', { Authorization: 'MediaServer Token="abc"' }],
    ['no Version', { Authorization: 'MediaServer Client="a", Device="b", DeviceId="c"' }],
    ['an empty DeviceId', { Authorization: 'MediaServer Client="a", Device="b", DeviceId="", Version="1"' }],
    ['another scheme', { Authorization: 'Bearer Client="a", Device="b", DeviceId="c", Version="1"' }],
  ])('answers a sign-in with %s with 400 problem details', async (_case, headers) => {
    const res = await call(legacyOn.server.url, signInRoute(ADMIN_LOGIN), { headers });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(((await res.json()) as { errors: Record<string, string[]> }).errors.Authorization?.[0]).toMatch(
      /must name the client/,
    );
  });

  it('reads the client fields from X-Emby-Authorization, and the Emby word, only while legacy authorization is on', async () => {
    const legacyHeader = {
      'X-Emby-Authorization': 'MediaBrowser Client="old", Device="tv", DeviceId="legacy-1", Version="4"',
    };
    const emby = { Authorization: 'Emby Client="old", Device="tv", DeviceId="legacy-2", Version="4"' };
    for (const headers of [legacyHeader, emby]) {
      expect((await call(legacyOn.server.url, signInRoute(ADMIN_LOGIN), { headers })).status).toBe(200);
      expect((await call(legacyOff.server.url, signInRoute(ADMIN_LOGIN), { headers })).status).toBe(400);
    }
  });

  it("ends the device's earlier session when the same user signs in again from it", async () => {
    const queue = admin(true)[1] as Route;
    const first = await signIn(legacyOn.server, 'viewer', 'viewer password', 'same-device');
    const other = await signIn(legacyOn.server, 'viewer', 'viewer password', 'other-device');
    const adminThere = await signIn(legacyOn.server, 'admin', 'correct horse battery staple', 'same-device');
    const second = await signIn(legacyOn.server, 'viewer', 'viewer password', 'same-device');
    await expectEmpty(await call(legacyOn.server.url, queue, token(first)), 401);
    await expectEmpty(await call(legacyOn.server.url, queue, token(second)), 403);
    await expectEmpty(await call(legacyOn.server.url, queue, token(other)), 403);
    expect((await call(legacyOn.server.url, queue, token(adminThere))).status).toBe(200);
  });
});

describe('POST /Sessions/Logout', () => {
  const logout: Route = { method: 'POST', path: '/Sessions/Logout', ok: 204 };
  const queue = () => admin(true)[1] as Route;

  it("ends the caller's own session, for an admin and a non-admin alike", async () => {
    for (const [name, password, status] of [
      ['admin', 'correct horse battery staple', 200],
      ['viewer', 'viewer password', 403],
    ] as const) {
      const session = await signIn(legacyOn.server, name, password, `logout-${name}`);
      const bystander = await signIn(legacyOn.server, name, password, `bystander-${name}`);
      expect((await call(legacyOn.server.url, queue(), token(session))).status).toBe(status);
      await expectEmpty(await call(legacyOn.server.url, logout, token(session)), 204);
      await expectEmpty(await call(legacyOn.server.url, queue(), token(session)), 401);
      await expectEmpty(await call(legacyOn.server.url, logout, token(session)), 401);
      expect((await call(legacyOn.server.url, queue(), token(bystander))).status).toBe(status);
    }
  });

  it('answers 204 to an API key and ends nothing; 401 without credentials', async () => {
    await expectEmpty(await call(legacyOn.server.url, logout, token(legacyOn.adminKey)), 204);
    expect((await call(legacyOn.server.url, queue(), token(legacyOn.adminKey))).status).toBe(200);
    await expectEmpty(await call(legacyOn.server.url, logout), 401);
    await expectEmpty(await call(legacyOn.server.url, { ...logout, path: '/sessions/logout' }), 401);
  });
});
