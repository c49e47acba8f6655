/**
 * The subtitles host's configuration, read once from the environment. The only reader of process.env.
 */
import { hostname } from 'node:os';
import path from 'node:path';
import type { LevelWithSilent } from 'pino';
import { boolVar, ConfigError, type Env, enumVar, intVar, portVar, stringVar } from '../common/env';
import { logLevelVar } from '../common/logger';
import { withoutTrailingSlashes } from '../common/text';

export const VARIANTS = ['cpu', 'noavx', 'cuda12', 'cuda12-noavx', 'vulkan', 'vulkan-noavx', 'rocm'] as const;
export type Variant = (typeof VARIANTS)[number];

export const INJECTION_MODES = [
  'direct',
  'file-transformation',
  'direct+file-transformation',
  'none',
] as const;
export type InjectionMode = (typeof INJECTION_MODES)[number];

export interface ServerVersion {
  text: string;
  major: number;
  minor: number;
}

/** Failed sign-ins a client may make before it waits (domain/sign-in-throttle.ts). */
export interface SignInLimits {
  /** Failures one client may make for one user name in the window. */
  perUser: number;
  /** Failures one client may make in all in the window. */
  perClient: number;
  windowMs: number;
}

export interface SubtitlesConfig {
  host: string;
  port: number;
  dataDir: string;
  webDir: string;
  /** '' or '/segment[/segment…]', no trailing slash. */
  basePath: string;
  serverVersion: ServerVersion;
  /** What `System/Info/Public` calls the server (SUBTITLES_SERVER_NAME, by default the host name). */
  serverName: string;
  /** Set only when SUBTITLES_LEGACY_AUTHORIZATION is given; otherwise the version default applies. */
  legacyAuthorization: boolean | undefined;
  pluginName: string;
  pluginEnabled: boolean;
  injection: InjectionMode;
  whisper: {
    binary: string | undefined;
    model: string | undefined;
    /** '' until a binary is installed. */
    variant: Variant | '';
  };
  provider: 'local' | 'remote';
  remote: { url: string | undefined; apiKey: string | undefined; model: string };
  ffmpeg: string;
  mediaDir: string;
  defaultLanguage: string;
  workers: number;
  maxAttempts: number;
  jobTimeoutMs: number;
  /** Failed sign-ins a client may make before it waits (domain/sign-in-throttle.ts). */
  signInLimits: SignInLimits;
  logLevel: LevelWithSilent;
  validateResponses: boolean;
}

/** The environment of this process; every other module receives an Env or a config. */
export function processEnv(): Env {
  return process.env;
}

const absolute = (value: string) => path.resolve(value);

export function parseServerVersion(name: string, raw: string): ServerVersion {
  const match = /^(\d{1,4})\.(\d{1,4})(?:\.\d{1,6}){0,2}$/.exec(raw);
  if (!match) {
    throw new ConfigError(`${name} must be a version number such as 10.11 or 12.0, not "${raw}"`);
  }
  return { text: raw, major: Number(match[1]), minor: Number(match[2]) };
}

export function parseBasePath(name: string, raw: string | undefined): string {
  if (raw === undefined) return '';
  const trimmed = withoutTrailingSlashes(raw);
  if (trimmed === '') return '';
  const withSlash = trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(withSlash)) {
    throw new ConfigError(
      `${name} must be a path prefix such as /jellyfin (letters, digits, . _ ~ - between slashes), not "${raw}"`,
    );
  }
  return withSlash;
}

function httpUrl(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http:// or https:// URL, not "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http:// or https:// URL, not "${raw}"`);
  }
  return withoutTrailingSlashes(raw);
}

function optionalBool(env: Env, name: string): boolean | undefined {
  if ((env[name] ?? '').trim() === '') return undefined;
  return boolVar(env, name, false);
}

export function loadConfig(env: Env): SubtitlesConfig {
  const dataDir = absolute(
    stringVar(env, 'SUBTITLES_DATA_DIR', path.join(stringVar(env, 'DATA_DIR', 'data'), 'subtitles')),
  );
  const pluginName = stringVar(env, 'SUBTITLES_PLUGIN_NAME', 'Subtitles');
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(pluginName)) {
    throw new ConfigError(
      `SUBTITLES_PLUGIN_NAME must be 1 to 64 letters, digits, dots, dashes or underscores, not "${pluginName}"`,
    );
  }
  const remoteUrl = httpUrl('SUBTITLES_REMOTE_URL', stringVar(env, 'SUBTITLES_REMOTE_URL'));
  const provider = enumVar(env, 'SUBTITLES_PROVIDER', ['local', 'remote'], remoteUrl ? 'remote' : 'local');
  if (provider === 'remote' && !remoteUrl) {
    throw new ConfigError('SUBTITLES_PROVIDER=remote needs SUBTITLES_REMOTE_URL (the transcription server)');
  }
  const defaultLanguage = stringVar(env, 'SUBTITLES_DEFAULT_LANGUAGE', 'en');
  if (!/^[a-z]{2,3}$/.test(defaultLanguage)) {
    throw new ConfigError(
      `SUBTITLES_DEFAULT_LANGUAGE must be a lowercase ISO 639 code such as en, not "${defaultLanguage}"`,
    );
  }
  const binary = stringVar(env, 'SUBTITLES_WHISPER_BINARY');
  const model = stringVar(env, 'SUBTITLES_WHISPER_MODEL');
  const config: SubtitlesConfig = {
    host: stringVar(env, 'SUBTITLES_HOST', stringVar(env, 'HOST', '127.0.0.1')),
    port: portVar(env, 'SUBTITLES_PORT', 8096),
    dataDir,
    webDir: absolute(stringVar(env, 'SUBTITLES_WEB_DIR', path.join(dataDir, 'web'))),
    basePath: parseBasePath('SUBTITLES_BASE_PATH', stringVar(env, 'SUBTITLES_BASE_PATH')),
    serverVersion: parseServerVersion(
      'SUBTITLES_SERVER_VERSION',
      stringVar(env, 'SUBTITLES_SERVER_VERSION', '10.11'),
    ),
    serverName: stringVar(env, 'SUBTITLES_SERVER_NAME', hostname() || 'media-server'),
    legacyAuthorization: optionalBool(env, 'SUBTITLES_LEGACY_AUTHORIZATION'),
    pluginName,
    pluginEnabled: boolVar(env, 'SUBTITLES_PLUGIN_ENABLED', true),
    injection: enumVar(env, 'SUBTITLES_INJECTION', INJECTION_MODES, 'direct'),
    whisper: {
      binary: binary === undefined ? undefined : absolute(binary),
      model: model === undefined ? undefined : absolute(model),
      variant: enumVar<Variant | ''>(env, 'SUBTITLES_WHISPER_VARIANT', VARIANTS, ''),
    },
    provider,
    remote: {
      url: remoteUrl,
      apiKey: stringVar(env, 'SUBTITLES_REMOTE_API_KEY'),
      model: stringVar(env, 'SUBTITLES_REMOTE_MODEL', 'whisper-1'),
    },
    ffmpeg: stringVar(env, 'SUBTITLES_FFMPEG', 'ffmpeg'),
    mediaDir: absolute(stringVar(env, 'SUBTITLES_MEDIA_DIR', path.join(dataDir, 'media'))),
    defaultLanguage,
    workers: intVar(env, 'SUBTITLES_LOCAL_WORKERS', 1, { min: 1, max: 16 }),
    maxAttempts: intVar(env, 'SUBTITLES_QUEUE_MAX_ATTEMPTS', 2, { min: 1, max: 10 }),
    jobTimeoutMs:
      intVar(env, 'SUBTITLES_JOB_TIMEOUT_SECONDS', 4 * 3600, { min: 1, max: 7 * 24 * 3600 }) * 1000,
    signInLimits: {
      perUser: intVar(env, 'SUBTITLES_SIGNIN_MAX_FAILURES_PER_USER', 5, { min: 1, max: 1000 }),
      perClient: intVar(env, 'SUBTITLES_SIGNIN_MAX_FAILURES', 20, { min: 1, max: 10_000 }),
      windowMs: intVar(env, 'SUBTITLES_SIGNIN_WINDOW_SECONDS', 900, { min: 1, max: 86_400 }) * 1000,
    },
    logLevel: logLevelVar(env),
    validateResponses: boolVar(env, 'VALIDATE_RESPONSES', (env.NODE_ENV ?? '') !== 'production'),
  };
  return Object.freeze(config);
}
