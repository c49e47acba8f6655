/**
 * Where a request's token is read from, in the media server's order:
 * 1. the `Authorization` header (`MediaServer Token="…"`, scheme case-insensitive, `MediaBrowser` too,
 *    `Emby` only while legacy authorization is on; quotes optional); only when that header is empty and
 *    legacy authorization is on, `X-Emby-Authorization` in the same form,
 * 2. only while legacy authorization is on: `X-Media-Token`, then `X-Emby-Token`, then `X-MediaBrowser-Token`,
 * 3. the `ApiKey` query parameter (case-sensitive name; an empty value counts as absent).
 */
export const AUTHORIZATION_SCHEMES = ['mediaserver', 'mediabrowser'];
export const LEGACY_AUTHORIZATION_SCHEMES = ['emby'];
export const LEGACY_AUTHORIZATION_HEADER = 'x-emby-authorization';
export const LEGACY_HEADERS = ['x-media-token', 'x-emby-token', 'x-mediabrowser-token'];

/** `WebUtility.UrlDecode`: `+` is a space, `%xx` decoded, a malformed escape left as it is. */
function urlDecode(value: string): string {
  const spaced = value.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/%[0-9a-fA-F]{2}/g, (sequence) => {
      try {
        return decodeURIComponent(sequence);
      } catch {
        return sequence;
      }
    });
  }
}

/** Splits on commas that are outside double quotes. */
function splitParts(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    if (char === ',' && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

/**
 * The parameters of a media-server Authorization header (`Token`, `Client`, `Device`, `DeviceId`,
 * `Version`; names case-sensitive), or undefined when the scheme is not the media server's (`Emby` is
 * the media server's only while legacy authorization is on).
 */
export function parseAuthorization(
  header: string | undefined,
  legacyAuthorization = false,
): Record<string, string> | undefined {
  if (!header) return undefined;
  const text = header.trim();
  const space = text.indexOf(' ');
  if (space < 0) return undefined;
  const scheme = text.slice(0, space).toLowerCase();
  const known =
    AUTHORIZATION_SCHEMES.includes(scheme) ||
    (legacyAuthorization && LEGACY_AUTHORIZATION_SCHEMES.includes(scheme));
  if (!known) return undefined;
  const params: Record<string, string> = {};
  for (const part of splitParts(text.slice(space + 1))) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (key) params[key] = urlDecode(value);
  }
  return params;
}

export interface CredentialSources {
  header(name: string): string | undefined;
  /** The `ApiKey` query parameter, exactly that name. */
  apiKeyQuery: string | undefined;
}

/**
 * The authorization header's parameters, from `Authorization`, or from `X-Emby-Authorization` when
 * `Authorization` is empty and legacy authorization is on; undefined when neither is the media server's.
 */
export function authorizationInfo(
  header: CredentialSources['header'],
  legacyAuthorization: boolean,
): Record<string, string> | undefined {
  const primary = header('authorization');
  if (primary?.trim()) return parseAuthorization(primary, legacyAuthorization);
  if (!legacyAuthorization) return undefined;
  return parseAuthorization(header(LEGACY_AUTHORIZATION_HEADER), true);
}

export function findToken(sources: CredentialSources, legacyAuthorization: boolean): string | undefined {
  const fromHeader = authorizationInfo(sources.header, legacyAuthorization)?.Token;
  if (fromHeader) return fromHeader;
  if (legacyAuthorization) {
    for (const name of LEGACY_HEADERS) {
      const value = sources.header(name)?.trim();
      if (value) return value;
    }
  }
  return sources.apiKeyQuery || undefined;
}
