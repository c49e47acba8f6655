/**
 * The media server's front door, before anything else reads the request: the base path, the route
 * (matched without regard to letter case, then rewritten to the document's spelling), the plugin's
 * route segment, then the credentials against the operation's `x-access` (401 empty, 403 for a
 * non-admin user). Any other path answers 404 whatever the credentials.
 */
import type { Request, RequestHandler, Response } from 'express';
import { loadBundledDocument } from '../../common/documents';
import { contextKey, readContext, writeContext } from '../../common/http/context';
import type { FrontDoorOptions } from '../../common/http/front-door';
import { decoded, type MatchedOperation, matchedOperation } from '../../common/http/matched-operation';
import { documentedOperations } from '../../common/http/operations';
import { type Principal, resolveToken } from '../domain/accounts';
import { findToken } from '../domain/credentials';
import type { SubtitlesStore } from '../store/store';

/** Who may call an operation: anyone, any signed-in user (or an API key), or an administrator. */
export const ACCESS_LEVELS = ['public', 'user', 'admin'] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

/**
 * Every operation's access level, read from the document's `x-access`. Throws (so the server does not
 * start) when an operation has no level or an unknown one, or needs credentials the document does not
 * describe.
 */
// biome-ignore lint/suspicious/noExplicitAny: the bundled document is walked generically.
export function accessLevels(doc: any): Map<string, Access> {
  const levels = new Map<string, Access>();
  for (const op of documentedOperations(doc)) {
    const access = op.operation['x-access'];
    if (!ACCESS_LEVELS.includes(access)) {
      throw new Error(
        `${op.operationId} (${op.method.toUpperCase()} ${op.path}) has no valid x-access (public, user or admin): ${JSON.stringify(access)}`,
      );
    }
    const security: unknown[] = op.operation.security ?? doc.security ?? [];
    if (access !== 'public' && security.length === 0) {
      throw new Error(`${op.operationId}: x-access ${access} but the document names no credentials for it`);
    }
    levels.set(op.operationId, access as Access);
  }
  return levels;
}

export interface GateSettings {
  basePath: string;
  pluginName: string;
  pluginEnabled: boolean;
  store: SubtitlesStore;
  legacyAuthorization: () => boolean;
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
    .filter((part) => part !== '' && decoded(part.split('=')[0] ?? '') !== 'ApiKey');
  return kept.length > 0 ? `?${kept.join('&')}` : '';
}

/** A plugin route is open only while the plugin is loaded, and only under its own segment. */
const pluginOpen = (found: MatchedOperation, settings: GateSettings) =>
  !found.template.startsWith('/Plugins/{plugin}/') ||
  (settings.pluginEnabled && found.rawParams.plugin === settings.pluginName);

/** The caller the gate let through (absent on public routes). */
export const principalOf = (res: Pick<Response, 'req'>): Principal | undefined =>
  readContext(res.req, PRINCIPAL);

/** The caller the gate let through, written by the gate for the matched operation. */
const PRINCIPAL = contextKey<Principal>('the media server caller');

/**
 * The media server's front door: its base path, its routes matched in any letter case, the plugin's routes
 * only under the plugin's own segment and while it is loaded; anything else answers 404.
 */
export function gateMatching(
  settings: GateSettings,
): Pick<FrontDoorOptions, 'basePath' | 'match' | 'served'> {
  return {
    basePath: settings.basePath,
    match: { literalParams: { plugin: settings.pluginName } },
    served: (found) => pluginOpen(found, settings),
  };
}

/**
 * The credentials, against the matched operation's `x-access` (401 empty, 403 for a non-admin user). An
 * `ApiKey` in the query is consumed here, like the credential headers: the validator never sees it.
 */
export function gate(
  settings: GateSettings,
  document: unknown = loadBundledDocument('subtitles'),
): RequestHandler {
  const levels = accessLevels(document);
  return async (req, res, next) => {
    const found = matchedOperation(req);
    if (!found) {
      res.status(404).end();
      return;
    }
    const apiKey = apiKeyQuery(req);
    const at = req.url.indexOf('?');
    if (at >= 0) {
      req.url = `${req.url.slice(0, at)}${withoutApiKey(req.url.slice(at))}`;
      req.originalUrl = req.url;
    }
    const access = levels.get(found.operationId) as Access;
    if (access !== 'public') {
      const token = findToken(
        { header: (name) => req.get(name), apiKeyQuery: apiKey },
        settings.legacyAuthorization(),
      );
      const principal = token ? await resolveToken(settings.store, token) : undefined;
      if (!principal) {
        res.status(401).end();
        return;
      }
      if (access === 'admin' && !principal.isAdmin) {
        res.status(403).end();
        return;
      }
      writeContext(req, PRINCIPAL, principal);
    }
    next();
  };
}
