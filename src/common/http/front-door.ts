/**
 * The front door of every service, and the only matcher: it reads the request target (request-target.ts),
 * finds the one operation of the document it is for, records it in the request's context and rewrites the
 * request to the document's spelling. A request it cannot read answers 400, one that matches no operation
 * 404 (405 with `Allow` where the service says so, a CORS preflight where the path is known), all before
 * any of the service's code runs: only a matched request is handed on, and behind it each handler is
 * reached by its operation id (operations.ts), never by a second path matcher.
 */
import type { RequestHandler } from 'express';
import { writeContext } from './context';
import {
  decoded,
  MATCHED_OPERATION,
  type MatchedOperation,
  type MatchOptions,
  type OperationTable,
} from './matched-operation';
import { readRequestTarget } from './request-target';

export interface FrontDoorAnswers {
  /** A request target that cannot be read (`#`, a backslash, a byte outside ASCII, `*`, `host:port`). */
  badTarget: RequestHandler;
  /** A path the document does not know (or an operation not served now). */
  notFound: RequestHandler;
  /** A method the document does not give a path it knows (`Allow` is set already); else `notFound`. */
  methodNotAllowed?: RequestHandler;
  /** A CORS preflight (`OPTIONS` with `Access-Control-Request-Method`) on a path the document knows. */
  preflight?: RequestHandler;
}

export interface FrontDoorOptions {
  table: OperationTable;
  answers: FrontDoorAnswers;
  /** What stands before the document's paths (the media server's base path), in any letter case. */
  basePath?: string;
  match?: MatchOptions;
  /** Whether a matched operation is served now (a plugin's routes only while it is loaded). */
  served?: (operation: MatchedOperation) => boolean;
}

const isPreflight = (headers: Record<string, unknown>) =>
  headers.origin !== undefined && headers['access-control-request-method'] !== undefined;

export function frontDoor(options: FrontDoorOptions): RequestHandler {
  const { table, answers } = options;
  const basePath = options.basePath?.toLowerCase() ?? '';
  return (req, res, next) => {
    const target = readRequestTarget(req.url);
    if (!target.ok) {
      req.log?.info({ reason: target.reason }, 'request target refused');
      return answers.badTarget(req, res, next);
    }
    if (basePath && !target.pathname.toLowerCase().startsWith(`${basePath}/`)) {
      return answers.notFound(req, res, next);
    }
    const pathname = target.pathname.slice(basePath.length);
    // An absolute-form target names the host; the Host header is then ignored (RFC 9112 section 3.2.2).
    if (target.authority !== undefined) req.headers.host = target.authority;
    const found = table.find(req.method, pathname, options.match);
    if (found && (options.served?.(found) ?? true)) {
      if (Object.values(found.rawParams).some((value) => decoded(value) === undefined)) {
        return answers.badTarget(req, res, next);
      }
      writeContext(req, MATCHED_OPERATION, found);
      req.url = `${found.path}${target.query}`;
      req.originalUrl = req.url;
      return next();
    }
    const allowed = found ? [] : table.methodsAt(pathname, options.match, options.served);
    if (allowed.length > 0 && req.method === 'OPTIONS' && answers.preflight && isPreflight(req.headers)) {
      return answers.preflight(req, res, next);
    }
    if (allowed.length > 0 && answers.methodNotAllowed) {
      res.setHeader('Allow', allowed.join(', '));
      return answers.methodNotAllowed(req, res, next);
    }
    return answers.notFound(req, res, next);
  };
}
