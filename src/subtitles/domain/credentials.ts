/**
 * Where a request's token is read from, in the media server's order:
 * 1. `Authorization: MediaServer Token="…"` (scheme case-insensitive, `MediaBrowser` too; quotes optional),
 * 2. only while legacy authorization is on: `X-Media-Token`, then `X-Emby-Token`,
 * 3. the `ApiKey` query parameter (case-sensitive name).
 */
export const AUTHORIZATION_SCHEMES = ['mediaserver', 'mediabrowser'];
export const LEGACY_HEADERS = ['x-media-token', 'x-emby-token'];

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
 * `Version`; names case-sensitive), or undefined when the scheme is not the media server's.
 */
export function parseAuthorization(header: string | undefined): Record<string, string> | undefined {
  if (!header) return undefined;
  const text = header.trim();
  const space = text.indexOf(' ');
  if (space < 0) return undefined;
  if (!AUTHORIZATION_SCHEMES.includes(text.slice(0, space).toLowerCase())) return undefined;
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

export function findToken(sources: CredentialSources, legacyAuthorization: boolean): string | undefined {
  const fromHeader = parseAuthorization(sources.header('authorization'))?.Token;
  if (fromHeader) return fromHeader;
  if (legacyAuthorization) {
    for (const name of LEGACY_HEADERS) {
      const value = sources.header(name)?.trim();
      if (value) return value;
    }
  }
  return sources.apiKeyQuery || undefined;
}
