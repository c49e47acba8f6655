import type { Node } from './document';
import type { Credentials } from './exchange';

/** A stand-in credential for every security scheme of a document: enough for a mock, useless elsewhere. */
export function mockCredentials(doc: Node): Credentials {
  const credentials: Credentials = {};
  for (const [name, scheme] of Object.entries<Node>(doc.components?.securitySchemes ?? {})) {
    credentials[name] = scheme.type === 'http' ? 'mock-secret' : `mock-${name}`;
  }
  return credentials;
}

/**
 * Credentials for a contract run: stand-ins on Prism; on a live server, `CONTRACT_CREDENTIALS` holds a JSON
 * object of scheme name → value (e.g. `{"viewerSession": "<cookie value>"}`).
 */
export function contractCredentials(doc: Node, kind: 'prism' | 'live'): Credentials {
  if (kind === 'prism') return mockCredentials(doc);
  const raw = process.env.CONTRACT_CREDENTIALS;
  return raw ? (JSON.parse(raw) as Credentials) : {};
}

/** The same credentials as request headers (query-string schemes cannot be headers and are left out). */
export function credentialHeaders(doc: Node, credentials: Credentials): Record<string, string> {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(credentials)) {
    const scheme = doc.components?.securitySchemes?.[name];
    if (!scheme) continue;
    if (scheme.type === 'http')
      headers.Authorization = `${scheme.scheme === 'bearer' ? 'Bearer' : 'Basic'} ${value}`;
    else if (scheme.in === 'header') headers[scheme.name] = value;
    else if (scheme.in === 'cookie') cookies.push(`${scheme.name}=${value}`);
  }
  if (cookies.length > 0) headers.Cookie = cookies.join('; ');
  return headers;
}
