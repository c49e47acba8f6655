import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/env';
import { loadConfig, loginModes } from './config';

describe('loadConfig', () => {
  it('has the seed defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8000);
    expect(config.auth.sessionDays).toBe(30);
    expect(config.auth.secureCookies).toBeNull();
    expect(config.corsOrigins).toBe('*');
    expect(config.displayChatIds).toBeNull();
    expect(config.websocket).toEqual({
      maxConnections: 200,
      maxConnectionsPerLogin: 10,
      maxSubscriptionsPerConnection: 16,
    });
    expect(loginModes(config.auth)).toEqual({
      password: false,
      proxy: false,
      anonymous: false,
      configured: false,
    });
  });

  it('turns login modes on as the seed says', () => {
    const both = loadConfig({
      VIEWER_USERNAME: 'admin',
      VIEWER_PASSWORD: 'secret-pass',
      ALLOW_ANONYMOUS_VIEWER: 'true',
    });
    expect(loginModes(both.auth)).toMatchObject({ password: true, anonymous: false, configured: true });
    const onlyUser = loadConfig({ VIEWER_USERNAME: 'admin' });
    expect(loginModes(onlyUser.auth).configured).toBe(false);
    const anonymous = loadConfig({ ALLOW_ANONYMOUS_VIEWER: 'yes' });
    expect(loginModes(anonymous.auth)).toMatchObject({ anonymous: true, configured: true });
    const proxy = loadConfig({ AUTH_PROXY_HEADER: 'Remote-User', AUTH_PROXY_ADMIN_USERS: 'root, ops' });
    expect(proxy.auth.proxy).toMatchObject({
      header: 'remote-user',
      adminUsers: ['root', 'ops'],
      defaultAccess: 'none',
      trusted: { entries: ['127.0.0.0/8', '::1'] },
    });
    expect(
      ['127.0.0.1', '::ffff:127.0.0.1', '::1', '10.0.0.1'].map((ip) => proxy.auth.proxy?.trusted.has(ip)),
    ).toEqual([true, true, true, false]);
  });

  it('reads the trusted proxies, and refuses an entry that is no address or range', () => {
    const trusted = loadConfig({
      AUTH_PROXY_HEADER: 'Remote-User',
      AUTH_PROXY_TRUSTED: '10.0.0.0/8, fd00::1',
    }).auth.proxy?.trusted;
    expect(['10.2.3.4', 'fd00::1', '127.0.0.1'].map((ip) => trusted?.has(ip))).toEqual([true, true, false]);
    expect(() => loadConfig({ AUTH_PROXY_HEADER: 'Remote-User', AUTH_PROXY_TRUSTED: 'proxy.local' })).toThrow(
      'AUTH_PROXY_TRUSTED: "proxy.local" is neither an IP address nor a CIDR range',
    );
  });

  it('lets the ARCHIVE_ prefix win under npm start', () => {
    const config = loadConfig({ VIEWER_PORT: '9000', ARCHIVE_VIEWER_PORT: '8100' });
    expect(config.port).toBe(8100);
  });

  it('reads lists and labels', () => {
    const config = loadConfig({
      CORS_ORIGINS: 'https://a.example, https://b.example',
      DISPLAY_CHAT_IDS: '-1001234567890, 305718226',
      MSGR_ACCOUNT_2_LABEL: 'work',
    });
    expect(config.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(config.displayChatIds).toEqual([-1001234567890, 305718226, -1000305718226]);
    expect(config.accountLabels).toEqual({ 2: 'work' });
  });

  it.each([
    [{ SECURE_COOKIES: 'maybe' }, 'Invalid boolean value for SECURE_COOKIES'],
    [{ ALLOW_ANONYMOUS_VIEWER: 'sure' }, 'Invalid boolean value for ALLOW_ANONYMOUS_VIEWER'],
    [{ AUTH_SESSION_DAYS: '7.5' }, 'AUTH_SESSION_DAYS'],
    [{ MAX_WS_CONNECTIONS: 'many' }, 'MAX_WS_CONNECTIONS'],
    [{ MAX_WS_SUBSCRIPTIONS_PER_CONNECTION: '1e3' }, 'MAX_WS_SUBSCRIPTIONS_PER_CONNECTION'],
    [{ DISPLAY_CHAT_IDS: '12,abc' }, "invalid literal for int() with base 10: 'abc'"],
    [{ DELETION_MODE: 'shred' }, 'DELETION_MODE'],
    [{ MASS_OPERATION_THRESHOLD: '0' }, 'MASS_OPERATION_THRESHOLD'],
    [{ MASS_OPERATION_WINDOW_SECONDS: 'x' }, 'MASS_OPERATION_WINDOW_SECONDS'],
    [{ MASS_OPERATION_BUFFER_DELAY: 'soon' }, 'MASS_OPERATION_BUFFER_DELAY'],
    [{ VIEWER_TIMEZONE: 'Mars/Olympus' }, 'VIEWER_TIMEZONE'],
    [{ VIEWER_PORT: '70000' }, 'VIEWER_PORT'],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('accepts every boolean word of the seed', () => {
    for (const word of ['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', 'TRUE']) {
      expect(() => loadConfig({ TRUST_PROXY_HEADERS: word })).not.toThrow();
    }
    expect(loadConfig({ SECURE_COOKIES: 'off' }).auth.secureCookies).toBe(false);
  });
});

describe('database settings', () => {
  it('come from the store part, with the prefix applied', () => {
    expect(loadConfig({ ARCHIVE_DATABASE_PATH: '/tmp/a.db' }).database).toMatchObject({
      backend: 'sqlite',
      path: '/tmp/a.db',
    });
    expect(() => loadConfig({ DB_TYPE: 'oracle' })).toThrow('unrecognised database configuration');
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow('unrecognised database configuration');
  });
});
