/**
 * The host as real media-server clients meet it: the official TypeScript SDK (0.13 for 10.11, 1.0 for
 * 12.x) and the web client's own API library (jellyfin-apiclient 1.11). Public info, sign-in, the three
 * plugin routes as admin, non-admin, API key and bad token, under a base path, sign-out, and every
 * older header form with legacy authorization on and off.
 */
import { createRequire } from 'node:module';
import { Jellyfin as Jellyfin013 } from '@jellyfin/sdk';
import { getSessionApi as getSessionApi013 } from '@jellyfin/sdk/lib/utils/api/session-api.js';
import { getSystemApi as getSystemApi013 } from '@jellyfin/sdk/lib/utils/api/system-api.js';
import { getUserApi as getUserApi013 } from '@jellyfin/sdk/lib/utils/api/user-api.js';
import { Jellyfin as Jellyfin10 } from 'jellyfin-sdk-1';
import { getAuthenticationApi as getAuthenticationApi10 } from 'jellyfin-sdk-1/lib/utils/api/authentication-api.js';
import { getSessionApi as getSessionApi10 } from 'jellyfin-sdk-1/lib/utils/api/session-api.js';
import { getSystemApi as getSystemApi10 } from 'jellyfin-sdk-1/lib/utils/api/system-api.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Fixture, makeFixture, type Server, seedAccounts, startServer } from '../test-support';

const ADMIN_PASSWORD = 'correct horse battery staple';
const VIEWER_PASSWORD = 'viewer password';
const WRONG_TOKEN = '0123456789abcdef0123456789abcdef';
const PLUGIN_ROUTES = ['Setup/Status', 'Queue', 'Setup/InjectionStatus'] as const;

interface Host {
  fixture: Fixture;
  server: Server;
  adminKey: string;
}

async function host(env: Record<string, string>): Promise<Host> {
  const fixture = makeFixture();
  const { adminKey } = await seedAccounts(fixture.dataDir);
  const server = await startServer({ ...fixture.env, ...env });
  return { fixture, server, adminKey };
}

/** Legacy authorization on (10.11, its default) under `/jellyfin`; off (12.0, its default) under `/media`. */
let legacyOn: Host;
let legacyOff: Host;

beforeAll(async () => {
  [legacyOn, legacyOff] = await Promise.all([
    host({ SUBTITLES_BASE_PATH: '/jellyfin' }),
    host({ SUBTITLES_SERVER_VERSION: '12.0', SUBTITLES_BASE_PATH: '/media' }),
  ]);
});

afterAll(async () => {
  for (const h of [legacyOn, legacyOff]) {
    await h?.server.close();
    h?.fixture.remove();
  }
});

/** What both SDK versions share: an Api with a base path, an axios instance and the SDK's own header. */
interface SdkApi {
  basePath: string;
  authorizationHeader: string;
  axiosInstance: {
    request(config: {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      validateStatus?: () => boolean;
    }): Promise<{ status: number; data: unknown }>;
  };
}

interface Sdk {
  name: string;
  createApi(url: string, deviceId: string, token?: string): SdkApi;
  publicInfo(api: SdkApi): Promise<Record<string, unknown>>;
  systemInfo(api: SdkApi): Promise<Record<string, unknown>>;
  signIn(api: SdkApi, name: string, password: string): Promise<Record<string, unknown>>;
  /** The same Api, now carrying the token. */
  withToken(api: SdkApi, token: string): SdkApi;
  logout(api: SdkApi): Promise<number>;
}

const clientInfo = (version: string) => ({ name: 'specyard client tests', version });

const SDKS: Sdk[] = [
  {
    name: '@jellyfin/sdk 0.13',
    createApi: (url, deviceId, token) =>
      new Jellyfin013({
        clientInfo: clientInfo('0.13.0'),
        deviceInfo: { name: 'vitest', id: deviceId },
      }).createApi(url, token) as unknown as SdkApi,
    publicInfo: async (api) =>
      (await getSystemApi013(api as never).getPublicSystemInfo()).data as Record<string, unknown>,
    systemInfo: async (api) =>
      (await getSystemApi013(api as never).getSystemInfo()).data as Record<string, unknown>,
    signIn: async (api, name, password) =>
      (
        await getUserApi013(api as never).authenticateUserByName({
          authenticateUserByName: { Username: name, Pw: password },
        })
      ).data as Record<string, unknown>,
    withToken: (api, token) => {
      (api as unknown as { accessToken: string }).accessToken = token;
      return api;
    },
    logout: async (api) => (await getSessionApi013(api as never).reportSessionEnded()).status,
  },
  {
    name: '@jellyfin/sdk 1.0',
    createApi: (url, deviceId, token) =>
      new Jellyfin10({
        clientInfo: clientInfo('1.0.0'),
        deviceInfo: { name: 'vitest', id: deviceId },
      }).createApi(url, token) as unknown as SdkApi,
    publicInfo: async (api) =>
      (await getSystemApi10(api as never).getPublicSystemInfo()).data as Record<string, unknown>,
    systemInfo: async (api) =>
      (await getSystemApi10(api as never).getSystemInfo()).data as Record<string, unknown>,
    signIn: async (api, name, password) =>
      (
        await getAuthenticationApi10(api as never).authenticateUserByName({
          authenticateUserByName: { Username: name, Pw: password },
        })
      ).data as Record<string, unknown>,
    withToken: (api, token) => {
      (api as unknown as { update(data: { accessToken: string }): void }).update({ accessToken: token });
      return api;
    },
    logout: async (api) => (await getSessionApi10(api as never).reportSessionEnded()).status,
  },
];

/** A plugin route through the SDK's own axios instance and header (the SDK has no plugin methods). */
async function pluginGet(
  api: SdkApi,
  route: string,
  headers: Record<string, string> = { Authorization: api.authorizationHeader },
): Promise<{ status: number; data: unknown }> {
  const { status, data } = await api.axiosInstance.request({
    url: `${api.basePath}/Plugins/Subtitles/${route}`,
    method: 'GET',
    headers,
    validateStatus: () => true,
  });
  return { status, data };
}

/** The SDK's header sent the older ways: under X-Emby-Authorization, with the Emby word, as bare tokens. */
const LEGACY_FORMS: [string, (api: SdkApi, token: string) => Record<string, string>][] = [
  ['X-Emby-Authorization: MediaBrowser …', (api) => ({ 'X-Emby-Authorization': api.authorizationHeader })],
  [
    'Authorization: Emby …',
    (api) => ({ Authorization: api.authorizationHeader.replace(/^MediaBrowser /, 'Emby ') }),
  ],
  ['X-MediaBrowser-Token', (_api, token) => ({ 'X-MediaBrowser-Token': token })],
  ['X-Emby-Token', (_api, token) => ({ 'X-Emby-Token': token })],
  ['X-Media-Token', (_api, token) => ({ 'X-Media-Token': token })],
];

describe.each(SDKS.map((sdk) => [sdk.name, sdk] as const))('%s', (_name, sdk) => {
  const url = () => legacyOn.server.url;
  const device = (role: string) => `${sdk.name.replace(/\W+/g, '-')}-${role}`;

  it('reads the public system information without credentials', async () => {
    const info = await sdk.publicInfo(sdk.createApi(url(), device('public')));
    expect(info).toMatchObject({
      ServerName: expect.any(String),
      Version: '10.11.0',
      ProductName: 'Jellyfin Server',
      Id: expect.stringMatching(/^[0-9a-f]{32}$/),
      StartupWizardCompleted: true,
      LocalAddress: url(),
    });
  });

  it('signs an admin in and reads the three plugin routes, and the system information', async () => {
    const api = sdk.createApi(url(), device('admin'));
    const result = await sdk.signIn(api, 'admin', ADMIN_PASSWORD);
    const info = await sdk.publicInfo(api);
    expect(result).toMatchObject({
      AccessToken: expect.stringMatching(/^[0-9a-f]{32}$/),
      ServerId: info.Id,
      User: {
        Name: 'admin',
        ServerId: info.Id,
        HasPassword: true,
        HasConfiguredPassword: true,
        Policy: { IsAdministrator: true },
        Configuration: expect.objectContaining({ SubtitleMode: 'Default' }),
      },
      SessionInfo: { Client: 'specyard client tests', DeviceId: device('admin'), DeviceName: 'vitest' },
    });
    sdk.withToken(api, result.AccessToken as string);
    for (const route of PLUGIN_ROUTES) {
      const res = await pluginGet(api, route);
      expect(`${route} ${res.status}`).toBe(`${route} 200`);
      expect(res.data).toBeTypeOf('object');
    }
    expect(await sdk.systemInfo(api)).toMatchObject({ Id: info.Id, HasPendingRestart: false });
  });

  it('gets 403 with an empty body as a non-admin user', async () => {
    const api = sdk.createApi(url(), device('viewer'));
    const result = await sdk.signIn(api, 'viewer', VIEWER_PASSWORD);
    expect(result).toMatchObject({ User: { Policy: { IsAdministrator: false } } });
    sdk.withToken(api, result.AccessToken as string);
    for (const route of PLUGIN_ROUTES) expect(await pluginGet(api, route)).toEqual({ status: 403, data: '' });
  });

  it('reads the plugin routes with an API key as its token, and gets 401 empty with a bad token', async () => {
    const keyed = sdk.createApi(url(), device('key'), legacyOn.adminKey);
    const bad = sdk.createApi(url(), device('bad'), WRONG_TOKEN);
    for (const route of PLUGIN_ROUTES) {
      expect((await pluginGet(keyed, route)).status).toBe(200);
      expect(await pluginGet(bad, route)).toEqual({ status: 401, data: '' });
    }
  });

  it('answers 404 without the base path', async () => {
    const api = sdk.createApi(legacyOn.server.origin, device('no-base'), legacyOn.adminKey);
    for (const route of PLUGIN_ROUTES) expect((await pluginGet(api, route)).status).toBe(404);
  });

  it("signs out, and signing in again from the same device ends the device's earlier session", async () => {
    const first = sdk.createApi(url(), device('twice'));
    sdk.withToken(first, (await sdk.signIn(first, 'admin', ADMIN_PASSWORD)).AccessToken as string);
    const second = sdk.createApi(url(), device('twice'));
    sdk.withToken(second, (await sdk.signIn(second, 'admin', ADMIN_PASSWORD)).AccessToken as string);
    expect((await pluginGet(first, 'Queue')).status).toBe(401);
    expect((await pluginGet(second, 'Queue')).status).toBe(200);
    expect(await sdk.logout(second)).toBe(204);
    expect((await pluginGet(second, 'Queue')).status).toBe(401);
  });

  describe.each(LEGACY_FORMS)('the older form %s', (_form, headers) => {
    it('opens the plugin routes while legacy authorization is on (10.11)', async () => {
      const api = sdk.createApi(legacyOn.server.url, device('legacy'), legacyOn.adminKey);
      for (const route of PLUGIN_ROUTES) {
        expect((await pluginGet(api, route, headers(api, legacyOn.adminKey))).status).toBe(200);
      }
    });

    it('is ignored while legacy authorization is off (12.0): 401, empty', async () => {
      const api = sdk.createApi(legacyOff.server.url, device('legacy'), legacyOff.adminKey);
      expect((await pluginGet(api, 'Queue')).status).toBe(200);
      for (const route of PLUGIN_ROUTES) {
        expect(await pluginGet(api, route, headers(api, legacyOff.adminKey))).toEqual({
          status: 401,
          data: '',
        });
      }
    });
  });
});

/**
 * jellyfin-apiclient is a browser library: its UMD wrapper reads `self` when it loads, and it keeps the
 * signed-in user in `localStorage`. Node has neither, so the test provides the two, minimal: `self` is
 * the global object, and `localStorage` an in-memory map. Everything else (fetch, Response) is Node's.
 */
interface ApiClientInstance {
  enableAutomaticNetworking: boolean;
  enableAutomaticBitrateDetection: boolean;
  getPublicSystemInfo(): Promise<Record<string, unknown>>;
  getSystemInfo(): Promise<Record<string, unknown>>;
  authenticateUserByName(name: string, password: string): Promise<Record<string, unknown>>;
  setAuthenticationInfo(token: string | null, userId: string | null): void;
  getUrl(name: string): string;
  getJSON(url: string): Promise<unknown>;
  /** With `false`, sends the request's own headers instead of the library's Authorization header. */
  fetch(
    request: { url: string; type: string; dataType: string; headers: Record<string, string> },
    includeAuthorization: boolean,
  ): Promise<unknown>;
  setRequestHeaders(headers: Record<string, string>): void;
  logout(): Promise<unknown>;
  accessToken(): string | null;
}
type ApiClientClass = new (
  server: string,
  appName: string,
  appVersion: string,
  deviceName: string,
  deviceId: string,
) => ApiClientInstance;

function loadApiClient(): ApiClientClass {
  const globals = globalThis as Record<string, unknown>;
  globals.self ??= globalThis;
  if (globals.localStorage === undefined) {
    const items = new Map<string, string>();
    globals.localStorage = {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, String(value)),
      removeItem: (key: string) => void items.delete(key),
      clear: () => items.clear(),
    };
  }
  const library = createRequire(import.meta.url)('jellyfin-apiclient') as { ApiClient: ApiClientClass };
  return library.ApiClient;
}

/** The status of a rejected call: the library rejects with the fetch Response. */
async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (error) {
    if (error instanceof Response) return error.status;
    throw error;
  }
}

describe('jellyfin-apiclient 1.11 (the web client’s API library)', () => {
  let ApiClient: ApiClientClass;

  beforeAll(() => {
    // The library logs every request to the console.
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    ApiClient = loadApiClient();
  });

  afterAll(() => {
    vi.restoreAllMocks();
  });

  const client = (h: Host, deviceId: string) => {
    const c = new ApiClient(h.server.url, 'Jellyfin Web', '10.11.0', 'Firefox', deviceId);
    c.enableAutomaticNetworking = false;
    c.enableAutomaticBitrateDetection = false;
    return c;
  };
  const plugin = (c: ApiClientInstance, route: string) => c.getJSON(c.getUrl(`Plugins/Subtitles/${route}`));

  it('reads the public system information, then signs in at users/authenticatebyname', async () => {
    const c = client(legacyOn, 'web-admin');
    const info = await c.getPublicSystemInfo();
    expect(info).toMatchObject({ Version: '10.11.0', ProductName: 'Jellyfin Server' });
    const result = await c.authenticateUserByName('admin', ADMIN_PASSWORD);
    expect(result).toMatchObject({
      ServerId: info.Id,
      User: { Name: 'admin', Policy: { IsAdministrator: true }, HasConfiguredPassword: true },
      SessionInfo: { Client: 'Jellyfin Web', DeviceId: 'web-admin', ApplicationVersion: '10.11.0' },
    });
    c.setAuthenticationInfo(result.AccessToken as string, (result.User as { Id: string }).Id);
    for (const route of PLUGIN_ROUTES) expect(await plugin(c, route)).toBeTypeOf('object');
    expect(await c.getSystemInfo()).toMatchObject({ Id: info.Id });
    await c.logout();
    expect(c.accessToken()).toBeNull();
    const stale = client(legacyOn, 'web-stale');
    stale.setAuthenticationInfo(result.AccessToken as string, (result.User as { Id: string }).Id);
    expect(await statusOf(plugin(stale, 'Queue'))).toBe(401);
  });

  it('gets 403 as a non-admin user, 200 with an API key and 401 with a bad token, per plugin route', async () => {
    const viewer = client(legacyOn, 'web-viewer');
    const result = await viewer.authenticateUserByName('viewer', VIEWER_PASSWORD);
    viewer.setAuthenticationInfo(result.AccessToken as string, (result.User as { Id: string }).Id);
    const keyed = client(legacyOn, 'web-key');
    keyed.setAuthenticationInfo(legacyOn.adminKey, 'api-key');
    const bad = client(legacyOn, 'web-bad');
    bad.setAuthenticationInfo(WRONG_TOKEN, 'nobody');
    for (const route of PLUGIN_ROUTES) {
      expect(await statusOf(plugin(viewer, route))).toBe(403);
      expect(await statusOf(plugin(keyed, route))).toBe(200);
      expect(await statusOf(plugin(bad, route))).toBe(401);
    }
  });

  describe.each(LEGACY_FORMS)('its header sent the older way, %s', (_form, headers) => {
    /** The library's own request, with its Authorization header moved to the older form. */
    const legacyGet = (h: Host, route: string) => {
      const c = client(h, 'web-legacy');
      c.setAuthenticationInfo(h.adminKey, 'api-key');
      const own: Record<string, string> = {};
      c.setRequestHeaders(own);
      const api = { authorizationHeader: own.Authorization ?? '' } as SdkApi;
      return c.fetch(
        {
          url: c.getUrl(`Plugins/Subtitles/${route}`),
          type: 'GET',
          dataType: 'json',
          headers: headers(api, h.adminKey),
        },
        false,
      );
    };

    it('opens the plugin routes while legacy authorization is on, and is ignored (401) while it is off', async () => {
      for (const route of PLUGIN_ROUTES) {
        expect(await statusOf(legacyGet(legacyOn, route))).toBe(200);
        expect(await statusOf(legacyGet(legacyOff, route))).toBe(401);
      }
    });
  });

  it('works the same with legacy authorization off (its header is the current form)', async () => {
    const c = client(legacyOff, 'web-off');
    expect(await c.getPublicSystemInfo()).toMatchObject({ Version: '12.0.0' });
    const result = await c.authenticateUserByName('admin', ADMIN_PASSWORD);
    c.setAuthenticationInfo(result.AccessToken as string, (result.User as { Id: string }).Id);
    for (const route of PLUGIN_ROUTES) expect(await statusOf(plugin(c, route))).toBe(200);
  });
});
