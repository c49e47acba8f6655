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
