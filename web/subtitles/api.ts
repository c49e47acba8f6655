/**
 * The plugin's API through the generated client. The page is a plugin page of the host, served at
 * `{base}/web/configurationpage?name=subtitles.html`; the plugin's route segment comes from its `<meta name="plugin">`.
 */
import { createSubtitlesClient } from '../../generated/subtitles/client';
import type { components } from '../../generated/subtitles/types';

export type SetupStatus = components['schemas']['SetupStatus'];
export type Gpu = components['schemas']['Gpu'];
export type QueueStatus = components['schemas']['QueueStatus'];
export type InjectionStatus = components['schemas']['InjectionStatus'];

/**
 * The server's base path: the page is served at `{base}/web/configurationpage`, or shown inside the media
 * server's web client at `{base}/web/...` (during development at `/`).
 */
export const basePath = () => window.location.pathname.replace(/\/web(\/.*)?$/i, '').replace(/\/+$/, '');
export const pluginName = () =>
  document.querySelector<HTMLMetaElement>('meta[name="plugin"]')?.content || 'Subtitles';

const TOKEN_KEY = 'subtitles.token';

/** Inside the media server's web client, the page uses its sign-in: the client's token, when it has one. */
const hostToken = (): string | null => {
  const host = (globalThis as { ApiClient?: { accessToken?: () => string | null } }).ApiClient;
  return host?.accessToken?.() || null;
};
export const storedToken = () => hostToken() ?? window.sessionStorage.getItem(TOKEN_KEY);
export const storeToken = (token: string | null) =>
  token ? window.sessionStorage.setItem(TOKEN_KEY, token) : window.sessionStorage.removeItem(TOKEN_KEY);

/** This browser's device id, kept so that signing in again replaces its earlier session. */
function deviceId(): string {
  const key = 'subtitles.device';
  let id = window.localStorage.getItem(key);
  if (!id) {
    id = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
      '',
    );
    window.localStorage.setItem(key, id);
  }
  return id;
}

/** The client header every media-server client sends: who it is, and its token once signed in. */
export function authorization(token?: string): string {
  const fields = [
    'Client="Subtitles settings"',
    `Device="${navigator.userAgent.includes('Mobile') ? 'Phone browser' : 'Browser'}"`,
    `DeviceId="${deviceId()}"`,
    'Version="1.0"',
    ...(token ? [`Token="${token}"`] : []),
  ];
  return `MediaServer ${fields.join(', ')}`;
}

export function client(token?: string) {
  return createSubtitlesClient({
    baseUrl: `${window.location.origin}${basePath()}`,
    headers: { Authorization: authorization(token) },
  });
}

/** Thrown when the server refuses the credentials, so the page asks for them again. */
export class AuthError extends Error {
  constructor(readonly status: number) {
    super(status === 403 ? 'This account is not an administrator.' : 'Sign in again: the key was refused.');
  }
}

/** What an error answer says: its problem's detail or title (the server's reason, in words), else its status. */
export function reasonOf(result: { error?: unknown; response: Response }): string {
  const problem = result.error as { title?: unknown; detail?: unknown; errors?: unknown } | undefined;
  const fields =
    problem?.errors && typeof problem.errors === 'object'
      ? Object.values(problem.errors as Record<string, unknown>)
          .flat()
          .filter((x): x is string => typeof x === 'string')
      : [];
  const words = [problem?.title, problem?.detail, ...fields].filter(
    (x): x is string => typeof x === 'string' && x.trim() !== '',
  );
  return words.length > 0
    ? [...new Set(words)].join(' ')
    : `The server answered HTTP ${result.response.status}.`;
}

export function check<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.status === 401 || result.response.status === 403)
    throw new AuthError(result.response.status);
  if (!result.response.ok || result.data === undefined) throw new Error(reasonOf(result));
  return result.data;
}
