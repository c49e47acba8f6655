/**
 * The viewer's configuration, read once from the environment (the only reader of process.env). A bad
 * value stops the viewer at start with a ConfigError naming the variable, as the seed's viewer crashes.
 */
import path from 'node:path';
import {
  boolVar,
  ConfigError,
  type Env,
  enumVar,
  intVar,
  numberVar,
  portVar,
  scopedEnv,
  stringVar,
} from '../common/env';
import { type TrustedPeers, trustedPeers } from '../common/http/client';
import { isValidTimeZone as isTimeZone } from './model/timezone';
import { archiveFolders, type DatabaseConfig, parseDatabaseConfig } from './store/config';

export type PushMode = 'off' | 'basic' | 'full';

export interface AuthConfig {
  /** Password mode: both set. */
  master: { username: string; password: string } | null;
  proxy: {
    header: string;
    adminUsers: string[];
    defaultAccess: 'all' | 'none';
    /** The peers whose header is believed (`AUTH_PROXY_TRUSTED`, default loopback). */
    trusted: TrustedPeers;
  } | null;
  /** Effective only with neither password nor proxy mode. */
  anonymous: boolean;
  sessionDays: number;
  /** true/false when SECURE_COOKIES is set; null: Secure only for logins over https. */
  secureCookies: boolean | null;
  trustProxyHeaders: boolean;
}

/** VAPID keys from the environment (URL-safe base64); without them the viewer generates and keeps its own. */
export interface VapidConfig {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export interface TranscriptionConfig {
  /** `TRANSCRIPTION_ENABLED`. */
  enabled: boolean;
  /** A server URL is set (`TRANSCRIPTION_URL`). */
  configured: boolean;
  url: string | null;
  apiKey: string | null;
  /** `TRANSCRIPTION_WEBHOOK_SECRET`, only when it begins `whsec_`. */
  webhookSecret: string | null;
  /** Where the transcription server posts its callbacks (`TRANSCRIPTION_CALLBACK_URL`). */
  callbackUrl: string | null;
  /** New requests per login in 10 minutes, and open requests per login (the master is exempt). */
  askRateLimit: number;
  askMaxOpen: number;
  /** The archive's media directory (`MEDIA_PATH`, else `BACKUP_PATH`), for the sender. */
  mediaRoot: string;
}

export interface ArchiveConfig {
  host: string;
  port: number;
  auth: AuthConfig;
  /** `*`, or the exact origins allowed with credentials. */
  corsOrigins: '*' | string[];
  /**
   * Host names the viewer answers to besides loopback names and IP addresses (`ALLOWED_HOSTS`,
   * `VIEWER_HOST` and the hosts of `CORS_ORIGINS`): what an anonymous viewer and `/internal/push` without a
   * secret accept in `Host` (http/hosts.ts).
   */
  allowedHosts: string[];
  /** The operator's filter of shown chats (marked ids); null shows every chat. */
  displayChatIds: number[] | null;
  accountLabels: Record<number, string>;
  timezone: string;
  showStats: boolean;
  statsCalculationHour: number;
  push: { mode: PushMode; enableNotifications: boolean; vapid: VapidConfig | null };
  transcription: TranscriptionConfig;
  websocket: {
    maxConnections: number;
    maxConnectionsPerLogin: number;
    maxSubscriptionsPerConnection: number;
  };
  /** Media failed this often count as exhausted in the status (`MEDIA_MAX_DOWNLOAD_ATTEMPTS`). */
  mediaMaxDownloadAttempts: number;
  /** Where media files live and the commands that open them on the viewer host. */
  media: MediaConfig;
  /** `INTERNAL_PUSH_SECRET`: the bearer secret `/internal/push` callers send. */
  internalPushSecret: string | null;
  validateResponses: boolean;
  database: DatabaseConfig;
}

export interface MediaConfig {
  /** `BACKUP_PATH` (default `<DATA_DIR>/backups`), absolute; see domain/media-layout.ts. */
  backupPath: string;
  /** `MEDIA_OPEN_CMD` and `MEDIA_OPEN_PATH_CMD`: an executable run with the file as its one argument. */
  openCmd: string | null;
  openPathCmd: string | null;
}

const listOf = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

/** A list of platform chat ids; a non-integer stops the viewer, in the seed's words. */
export function chatIdList(env: Env, name: string): number[] | null {
  const items = listOf(env[name]);
  if (items.length === 0) return null;
  const ids: number[] = [];
  for (const item of items) {
    if (!/^[+-]?\d+$/.test(item)) {
      throw new ConfigError(`${name}: invalid literal for int() with base 10: '${item}'`);
    }
    const id = Number(item);
    ids.push(id);
    // A positive id may be a channel or supergroup given without its -100 prefix: show that chat too.
    if (id > 0) ids.push(-(1_000_000_000_000 + id));
  }
  return [...new Set(ids)];
}

function accountLabels(env: Env): Record<number, string> {
  const labels: Record<number, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const match = /^MSGR_ACCOUNT_(\d+)_LABEL$/.exec(name);
    if (match && value?.trim()) labels[Number(match[1])] = value.trim();
  }
  return labels;
}

/** Variables the viewer shares with the backup: the seed's viewer refuses to start on bad values. */
function checkSharedSettings(env: Env): void {
  enumVar(env, 'DELETION_MODE', ['soft', 'hard'] as const, 'soft');
  intVar(env, 'MASS_OPERATION_THRESHOLD', 10, { min: 1 });
  intVar(env, 'MASS_OPERATION_WINDOW_SECONDS', 30, { min: 1 });
  numberVar(env, 'MASS_OPERATION_BUFFER_DELAY', 2);
}

/** The proxies allowed to send AUTH_PROXY_HEADER: loopback unless AUTH_PROXY_TRUSTED lists others. */
function proxyPeers(env: Env): TrustedPeers {
  const listed = listOf(env.AUTH_PROXY_TRUSTED);
  try {
    return trustedPeers(listed.length > 0 ? listed : ['127.0.0.0/8', '::1']);
  } catch (error) {
    throw new ConfigError(`AUTH_PROXY_TRUSTED: ${(error as Error).message}`);
  }
}

export function loadConfig(processEnv: Env = process.env): ArchiveConfig {
  const env = scopedEnv(processEnv, 'ARCHIVE_');
  const username = stringVar(env, 'VIEWER_USERNAME');
  const password = stringVar(env, 'VIEWER_PASSWORD');
  const proxyHeader = stringVar(env, 'AUTH_PROXY_HEADER');
  const secure = stringVar(env, 'SECURE_COOKIES');
  const timezone = stringVar(env, 'VIEWER_TIMEZONE', 'UTC');
  if (!isTimeZone(timezone)) throw new ConfigError(`VIEWER_TIMEZONE: unknown time zone "${timezone}"`);
  const corsOrigins = listOf(env.CORS_ORIGINS);
  checkSharedSettings(env);
  const pushMode = enumVar(env, 'PUSH_NOTIFICATIONS', ['off', 'basic', 'full'] as const, 'off');
  const vapidPublic = stringVar(env, 'VAPID_PUBLIC_KEY');
  const vapidPrivate = stringVar(env, 'VAPID_PRIVATE_KEY');
  const webhookSecret = stringVar(env, 'TRANSCRIPTION_WEBHOOK_SECRET');

  const config: ArchiveConfig = {
    host: stringVar(env, 'HOST', '127.0.0.1'),
    port: portVar(env, 'VIEWER_PORT', 8000),
    auth: {
      master: username && password ? { username, password } : null,
      proxy: proxyHeader
        ? {
            header: proxyHeader.toLowerCase(),
            adminUsers: listOf(env.AUTH_PROXY_ADMIN_USERS),
            defaultAccess:
              stringVar(env, 'AUTH_PROXY_DEFAULT_ACCESS', 'none').toLowerCase() === 'all' ? 'all' : 'none',
            trusted: proxyPeers(env),
          }
        : null,
      anonymous: boolVar(env, 'ALLOW_ANONYMOUS_VIEWER', false),
      sessionDays: intVar(env, 'AUTH_SESSION_DAYS', 30, { min: 1, max: 3650 }),
      secureCookies: secure === undefined ? null : boolVar(env, 'SECURE_COOKIES', false),
      trustProxyHeaders: boolVar(env, 'TRUST_PROXY_HEADERS', false),
    },
    corsOrigins: corsOrigins.length === 0 || corsOrigins.includes('*') ? '*' : corsOrigins,
    allowedHosts: [
      ...listOf(env.ALLOWED_HOSTS),
      ...(env.VIEWER_HOST ? [env.VIEWER_HOST] : []),
      ...corsOrigins.flatMap((origin) => {
        try {
          return [new URL(origin).host];
        } catch {
          return [];
        }
      }),
    ],
    displayChatIds: chatIdList(env, 'DISPLAY_CHAT_IDS'),
    accountLabels: accountLabels(env),
    timezone,
    showStats: boolVar(env, 'SHOW_STATS', true),
    statsCalculationHour: intVar(env, 'STATS_CALCULATION_HOUR', 3, { min: 0, max: 23 }),
    push: {
      mode: pushMode,
      enableNotifications: boolVar(env, 'ENABLE_NOTIFICATIONS', false),
      vapid:
        vapidPublic && vapidPrivate
          ? {
              publicKey: vapidPublic,
              privateKey: vapidPrivate,
              subject:
                stringVar(env, 'VAPID_SUBJECT') ?? stringVar(env, 'VAPID_CONTACT', 'mailto:admin@localhost'),
            }
          : null,
    },
    transcription: {
      enabled: boolVar(env, 'TRANSCRIPTION_ENABLED', false),
      configured: stringVar(env, 'TRANSCRIPTION_URL') !== undefined,
      url: stringVar(env, 'TRANSCRIPTION_URL') ?? null,
      apiKey: stringVar(env, 'TRANSCRIPTION_API_KEY') ?? null,
      webhookSecret: webhookSecret?.startsWith('whsec_') ? webhookSecret : null,
      callbackUrl: stringVar(env, 'TRANSCRIPTION_CALLBACK_URL') ?? null,
      askRateLimit: intVar(env, 'TRANSCRIPTION_ASK_RATE_LIMIT', 20, { min: 1 }),
      askMaxOpen: intVar(env, 'TRANSCRIPTION_ASK_MAX_OPEN', 50, { min: 1 }),
      // Stored file paths are relative to the media folder (the media layout, model/media-layout.ts).
      mediaRoot: path.resolve(archiveFolders(env).mediaRoot),
    },
    websocket: {
      maxConnections: intVar(env, 'MAX_WS_CONNECTIONS', 200, { min: 1 }),
      maxConnectionsPerLogin: intVar(env, 'MAX_WS_CONNECTIONS_PER_LOGIN', 10, { min: 1 }),
      maxSubscriptionsPerConnection: intVar(env, 'MAX_WS_SUBSCRIPTIONS_PER_CONNECTION', 16, { min: 1 }),
    },
    mediaMaxDownloadAttempts: intVar(env, 'MEDIA_MAX_DOWNLOAD_ATTEMPTS', 5, { min: 1 }),
    media: {
      backupPath: path.resolve(archiveFolders(env).mediaRoot),
      openCmd: stringVar(env, 'MEDIA_OPEN_CMD') ?? null,
      openPathCmd: stringVar(env, 'MEDIA_OPEN_PATH_CMD') ?? null,
    },
    internalPushSecret: stringVar(env, 'INTERNAL_PUSH_SECRET') ?? null,
    validateResponses: boolVar(
      env,
      'VALIDATE_RESPONSES',
      env.NODE_ENV === 'development' || env.NODE_ENV === 'test',
    ),
    database: parseDatabaseConfig(env),
  };
  return Object.freeze(config);
}

export interface LoginModes {
  password: boolean;
  proxy: boolean;
  /** Anonymous access counts only with neither password nor proxy mode on. */
  anonymous: boolean;
  /** False: every protected route answers 503 and the check says `setup_required`. */
  configured: boolean;
}

export function loginModes(auth: AuthConfig): LoginModes {
  const password = auth.master !== null;
  const proxy = auth.proxy !== null;
  const anonymous = auth.anonymous && !password && !proxy;
  return { password, proxy, anonymous, configured: password || proxy || anonymous };
}

/** The database settings alone (the `migrate` command needs nothing else). */
export function loadDatabaseConfig(processEnv: Env = process.env): DatabaseConfig {
  return parseDatabaseConfig(scopedEnv(processEnv, 'ARCHIVE_'));
}
