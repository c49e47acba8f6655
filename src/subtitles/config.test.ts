import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/env';
import { loadConfig } from './config';

describe('subtitles configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8096,
      host: '127.0.0.1',
      dataDir: path.resolve('data/subtitles'),
      webDir: path.resolve('data/subtitles/web'),
      mediaDir: path.resolve('data/subtitles/media'),
      basePath: '',
      serverVersion: { text: '10.11', major: 10, minor: 11 },
      legacyAuthorization: undefined,
      pluginName: 'Subtitles',
      pluginEnabled: true,
      injection: 'direct',
      whisper: { binary: undefined, model: undefined, variant: '' },
      provider: 'local',
      workers: 1,
      maxAttempts: 2,
      defaultLanguage: 'en',
      signInLimits: { perUser: 5, perClient: 20, windowMs: 900_000 },
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      SUBTITLES_PORT: '9000',
      SUBTITLES_DATA_DIR: '/srv/subs',
      SUBTITLES_WEB_DIR: '/usr/share/web',
      SUBTITLES_BASE_PATH: 'jellyfin/',
      SUBTITLES_SERVER_VERSION: '12.0.1',
      SUBTITLES_LEGACY_AUTHORIZATION: 'on',
      SUBTITLES_PLUGIN_NAME: 'WhisperSubs',
      SUBTITLES_PLUGIN_ENABLED: 'false',
      SUBTITLES_INJECTION: 'file-transformation',
      SUBTITLES_WHISPER_BINARY: '/opt/w/whisper-cli',
      SUBTITLES_WHISPER_MODEL: '/opt/w/ggml-base.bin',
      SUBTITLES_WHISPER_VARIANT: 'cuda12',
      SUBTITLES_REMOTE_URL: 'http://127.0.0.1:8080/',
      SUBTITLES_REMOTE_API_KEY: 'k',
      SUBTITLES_MEDIA_DIR: '/srv/media',
      SUBTITLES_LOCAL_WORKERS: '3',
    });
    expect(config).toMatchObject({
      port: 9000,
      dataDir: '/srv/subs',
      webDir: '/usr/share/web',
      mediaDir: '/srv/media',
      basePath: '/jellyfin',
      serverVersion: { major: 12, minor: 0 },
      legacyAuthorization: true,
      pluginName: 'WhisperSubs',
      pluginEnabled: false,
      injection: 'file-transformation',
      whisper: { binary: '/opt/w/whisper-cli', model: '/opt/w/ggml-base.bin', variant: 'cuda12' },
      provider: 'remote',
      remote: { url: 'http://127.0.0.1:8080', apiKey: 'k', model: 'whisper-1' },
      workers: 3,
    });
  });

  it('takes the data folder under DATA_DIR when SUBTITLES_DATA_DIR is not set', () => {
    expect(loadConfig({ DATA_DIR: '/var/data' }).dataDir).toBe('/var/data/subtitles');
  });

  it.each([
    ['SUBTITLES_PORT', 'eighty', /SUBTITLES_PORT/],
    ['SUBTITLES_PORT', '70000', /SUBTITLES_PORT/],
    ['SUBTITLES_BASE_PATH', '/media server', /SUBTITLES_BASE_PATH/],
    ['SUBTITLES_SERVER_VERSION', 'latest', /SUBTITLES_SERVER_VERSION must be a version number/],
    ['SUBTITLES_LEGACY_AUTHORIZATION', 'maybe', /SUBTITLES_LEGACY_AUTHORIZATION/],
    ['SUBTITLES_PLUGIN_NAME', 'Sub/titles', /SUBTITLES_PLUGIN_NAME/],
    ['SUBTITLES_PLUGIN_ENABLED', 'perhaps', /SUBTITLES_PLUGIN_ENABLED/],
    ['SUBTITLES_INJECTION', 'sometimes', /SUBTITLES_INJECTION must be one of/],
    ['SUBTITLES_WHISPER_VARIANT', 'metal', /SUBTITLES_WHISPER_VARIANT must be one of/],
    ['SUBTITLES_REMOTE_URL', 'ftp://host', /SUBTITLES_REMOTE_URL must be an http/],
    ['SUBTITLES_REMOTE_URL', 'not a url', /SUBTITLES_REMOTE_URL must be an http/],
    ['SUBTITLES_PROVIDER', 'remote', /needs SUBTITLES_REMOTE_URL/],
    ['SUBTITLES_LOCAL_WORKERS', '0', /SUBTITLES_LOCAL_WORKERS must be a whole number from 1 to 16/],
    ['SUBTITLES_LOCAL_WORKERS', '2.5', /SUBTITLES_LOCAL_WORKERS/],
    ['SUBTITLES_QUEUE_MAX_ATTEMPTS', '0', /SUBTITLES_QUEUE_MAX_ATTEMPTS/],
    ['SUBTITLES_DEFAULT_LANGUAGE', 'English', /SUBTITLES_DEFAULT_LANGUAGE/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL/],
  ])('refuses %s=%s with a clear message', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
