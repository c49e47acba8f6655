/**
 * The media server's front door, before anything else reads the request: the base path, the exact
 * route (any other path, letter case included, answers 404 whatever the credentials), the plugin's
 * route segment, then the credentials (401 empty, 403 for a non-admin user).
 */
import type { Request, RequestHandler } from 'express';
import { loadBundledDocument } from '../../common/documents';
import { documentedOperations } from '../../common/http/operations';
import { resolveToken } from '../domain/accounts';
import { findToken } from '../domain/credentials';
import type { SubtitlesStore } from '../store/store';

interface Route {
  method: string;
  pattern: RegExp;
  plugin: boolean;
  secured: boolean;
}

const literal = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

function routes(): Route[] {
  // biome-ignore lint/suspicious/noExplicitAny: the bundled document is walked generically.
  const doc = loadBundledDocument('subtitles') as any;
  return documentedOperations(doc).map((op) => {
    const security = doc.paths[op.path][op.method].security ?? doc.security ?? [];
    const source = op.path
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '([^/]+)' : literal(part)))
      .join('');
    return {
      method: op.method.toUpperCase(),
      pattern: new RegExp(`^${source}$`),
      plugin: op.path.startsWith('/Plugins/{plugin}/'),
      secured: security.length > 0,
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

function routeOf(
  known: Route[],
  method: string,
  local: string,
): { route: Route; segment?: string } | undefined {
  const wanted = method === 'HEAD' ? 'GET' : method;
  for (const route of known) {
    if (route.method !== wanted) continue;
    const match = route.pattern.exec(local);
    if (match) return { route, segment: match[1] };
  }
  return undefined;
}

/** A plugin route is open only while the plugin is loaded, and only under its own segment. */
const pluginOpen = (found: { route: Route; segment?: string }, settings: GateSettings) =>
  !found.route.plugin || (settings.pluginEnabled && decode(found.segment ?? '') === settings.pluginName);

export function gate(settings: GateSettings): RequestHandler {
  const known = routes();
  const { basePath } = settings;
  return async (req, res, next) => {
    const queryStart = req.url.indexOf('?');
    const pathname = queryStart < 0 ? req.url : req.url.slice(0, queryStart);
    const query = queryStart < 0 ? '' : req.url.slice(queryStart);
    if (basePath && !pathname.startsWith(`${basePath}/`)) {
      res.status(404).end();
      return;
    }
    const local = pathname.slice(basePath.length);
    const found = routeOf(known, req.method, local);
    if (!found || !pluginOpen(found, settings)) {
      res.status(404).end();
      return;
    }
    // The rest of the app (validator included) sees paths as the document writes them.
    req.url = `${local}${query}`;
    req.originalUrl = req.url;
    if (found.route.secured) {
      const token = findToken(
        { header: (name) => req.get(name), apiKeyQuery: apiKeyQuery(req) },
        settings.legacyAuthorization(),
      );
      const principal = token ? await resolveToken(settings.store, token) : undefined;
      if (!principal) {
        res.status(401).end();
        return;
      }
      if (!principal.isAdmin) {
        res.status(403).end();
        return;
      }
    }
    next();
  };
}
