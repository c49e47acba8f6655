/**
 * The auth matrix: every route × every way of sending (or not sending) credentials, on servers with
 * legacy authorization on and off, with a base path, and with the plugin not loaded.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Fixture,
  makeFixture,
  makeMedia,
  type Server,
  seedAccounts,
  startServer,
} from '../test-support';

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
];

interface Host {
  fixture: Fixture;
  server: Server;
  adminKey: string;
  revokedKey: string;
  adminSession: string;
  viewerSession: string;
}

async function signIn(server: Server, name: string, password: string): Promise<string> {
  const res = await fetch(`${server.url}/Users/AuthenticateByName`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Username: name, Pw: password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { AccessToken: string }).AccessToken;
}

async function host(env: Record<string, string> = {}): Promise<Host> {
  const fixture = makeFixture();
  makeMedia(path.join(fixture.mediaDir, 'clip.mka'));
  const { adminKey, revokedKey } = await seedAccounts(fixture.dataDir);
  const server = await startServer({ ...fixture.env, SUBTITLES_QUEUE_MAX_ATTEMPTS: '1', ...env });
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

beforeAll(async () => {
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
      ['the ApiKey query parameter', (h) => ({ query: { ApiKey: h.adminKey } }), 'ok'],
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
      ['X-Media-Token', 401],
      ['X-Emby-Token', 401],
    ] as const)('with %s while legacy authorization is off (12.0): %s', async (header, status) => {
      await expectEmpty(
        await call(legacyOff.server.url, legacyRoute, { headers: { [header]: legacyOff.adminKey } }),
        status,
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

    it('answers 404 in another letter case, with or without a key', async () => {
      const lower = { ...route, path: route.path.toLowerCase() };
      await expectEmpty(await call(legacyOn.server.url, lower, token(legacyOn.adminKey)), 404);
      await expectEmpty(await call(legacyOn.server.url, lower), 404);
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
        await call(legacyOn.server.url, { method: 'POST', path: '/Users/AuthenticateByName', body, ok: 200 }),
        401,
      );
    }
  });

  it.each([
    ['GET', '/'],
    ['GET', '/Plugins/Subtitles'],
    ['GET', '/Plugins/Subtitles/Setup/Status/'],
    ['GET', '/Plugins/Subtitles/Queue/Items'],
    ['DELETE', '/Plugins/Subtitles/Queue'],
    ['GET', '/web/other.html'],
    ['GET', '/System/Info'],
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
