/**
 * The media server's front door, before anything else reads the request: the base path, the route
 * (matched without regard to letter case, then rewritten to the document's spelling), the plugin's
 * route segment, then the credentials against the operation's `x-access` (401 empty, 403 for a
 * non-admin user). Any other path answers 404 whatever the credentials.
 */
import type { Request, RequestHandler, Response } from 'express';
import { loadBundledDocument } from '../../common/documents';
import { documentedOperations } from '../../common/http/operations';
import { type Principal, resolveToken } from '../domain/accounts';
import { findToken } from '../domain/credentials';
import type { SubtitlesStore } from '../store/store';

/** Who may call an operation: anyone, any signed-in user (or an API key), or an administrator. */
export const ACCESS_LEVELS = ['public', 'user', 'admin'] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

export interface Route {
  method: string;
  /** The document's path, e.g. `/Plugins/{plugin}/Queue`. */
  template: string;
  pattern: RegExp;
  plugin: boolean;
  access: Access;
  operationId: string;
}

const literal = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/**
 * Every operation's route and access level, read from the document's `x-access`. Throws (so the server
 * does not start) when an operation has no level or an unknown one, or needs credentials the
 * document does not describe.
 */
// biome-ignore lint/suspicious/noExplicitAny: the bundled document is walked generically.
export function accessRoutes(doc: any): Route[] {
  return documentedOperations(doc).map((op) => {
    const operation = doc.paths[op.path][op.method];
    const access = operation['x-access'];
    if (!ACCESS_LEVELS.includes(access)) {
      throw new Error(
        `${op.operationId} (${op.method.toUpperCase()} ${op.path}) has no valid x-access (public, user or admin): ${JSON.stringify(access)}`,
      );
    }
    const security: unknown[] = operation.security ?? doc.security ?? [];
    if (access !== 'public' && security.length === 0) {
      throw new Error(`${op.operationId}: x-access ${access} but the document names no credentials for it`);
    }
    const source = op.path
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '([^/]+)' : literal(part)))
      .join('');
    return {
      method: op.method.toUpperCase(),
      template: op.path,
      pattern: new RegExp(`^${source}$`, 'i'),
      plugin: op.path.startsWith('/Plugins/{plugin}/'),
      access: access as Access,
      operationId: op.operationId,
    };
  });
}

export interface GateSettings {
  basePath: string;
  pluginName: string;
  pluginEnabled: boolean;
  store: SubtitlesStore;
  legacyAuthorization: () => boolean;
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function apiKeyQuery(req: Request): string | undefined {
  const value = (req.query as Record<string, unknown>).ApiKey;
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

/** The query string without `ApiKey` (the gate consumes it, like the credential headers); others verbatim. */
function withoutApiKey(query: string): string {
  if (!query) return '';
  const kept = query
    .slice(1)
    .split('&')
    .filter((part) => part !== '' && decode(part.split('=')[0] ?? '') !== 'ApiKey');
  return kept.length > 0 ? `?${kept.join('&')}` : '';
}

interface Found {
  route: Route;
  /** The path in the document's spelling, with the request's parameter values. */
  canonical: string;
}

function routeOf(known: Route[], method: string, local: string, pluginName: string): Found | undefined {
  const wanted = method === 'HEAD' ? 'GET' : method;
  for (const route of known) {
    if (route.method !== wanted) continue;
    const match = route.pattern.exec(local);
    if (!match) continue;
    const values = match.slice(1);
    let index = 0;
    const canonical = route.template.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
      const value = values[index++] ?? '';
      // The plugin's segment is a literal route segment of the media server: any case, one spelling.
      return name === 'plugin' && decode(value)?.toLowerCase() === pluginName.toLowerCase()
        ? pluginName
        : value;
    });
    return { route, canonical };
  }
  return undefined;
}

/** A plugin route is open only while the plugin is loaded, and only under its own segment. */
const pluginOpen = (found: Found, settings: GateSettings) =>
  !found.route.plugin ||
  (settings.pluginEnabled && found.canonical.startsWith(`/Plugins/${settings.pluginName}/`));

/** The caller the gate let through (absent on public routes). */
export const principalOf = (res: Pick<Response, 'locals'>): Principal | undefined =>
  res.locals.principal as Principal | undefined;

export function gate(
  settings: GateSettings,
  document: unknown = loadBundledDocument('subtitles'),
): RequestHandler {
  const known = accessRoutes(document);
  const basePath = settings.basePath.toLowerCase();
  return async (req, res, next) => {
    const queryStart = req.url.indexOf('?');
    const pathname = queryStart < 0 ? req.url : req.url.slice(0, queryStart);
    const query = queryStart < 0 ? '' : req.url.slice(queryStart);
    if (basePath && !pathname.toLowerCase().startsWith(`${basePath}/`)) {
      res.status(404).end();
      return;
    }
    const local = pathname.slice(basePath.length);
    const found = routeOf(known, req.method, local, settings.pluginName);
    if (!found || !pluginOpen(found, settings)) {
      res.status(404).end();
      return;
    }
    const apiKey = apiKeyQuery(req);
    // The rest of the app (validator included) sees paths as the document writes them, and no ApiKey.
    req.url = `${found.canonical}${withoutApiKey(query)}`;
    req.originalUrl = req.url;
    if (found.route.access !== 'public') {
      const token = findToken(
        { header: (name) => req.get(name), apiKeyQuery: apiKey },
        settings.legacyAuthorization(),
      );
      const principal = token ? await resolveToken(settings.store, token) : undefined;
      if (!principal) {
        res.status(401).end();
        return;
      }
      if (found.route.access === 'admin' && !principal.isAdmin) {
        res.status(403).end();
        return;
      }
      res.locals.principal = principal;
    }
    next();
  };
}
