/**
 * The operation of the document a request is for, found once at the front door of every service
 * (front-door.ts) and the only thing security decisions look at (never the path as spelled).
 *
 * Routes match as Express and the media server match them: literal segments in any letter case, a
 * trailing slash ignored, literal segments before templated ones. The front door then rewrites the request
 * to the document's spelling, so the validator and every check behind it see one spelling of one operation.
 */
import type { IncomingMessage } from 'node:http';
import { type HttpMethod, type OpenApiNode, walkOperations } from '../openapi';
import { contextKey, readContext } from './context';

export interface MatchedOperation {
  operationId: string;
  method: HttpMethod;
  /** The document's path, `/api/chats/{chat_ref}`. */
  template: string;
  /** The operation object (its `x-` marks included). */
  operation: OpenApiNode;
  /** Path parameters as sent (still percent-encoded). */
  rawParams: Readonly<Record<string, string>>;
  /** The request's path in the document's spelling, parameter values as sent. */
  path: string;
}

interface Route {
  method: HttpMethod;
  template: string;
  operationId: string;
  operation: OpenApiNode;
  names: string[];
  pattern: RegExp;
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Literal segments win over templated ones, as OpenAPI says (`/media/avatar/{ref}` before `/media/{ref}/{key}`). */
export function bySpecificity(a: string, b: string): number {
  const sa = a.split('/');
  const sb = b.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const ta = sa[i]?.startsWith('{') ? 1 : 0;
    const tb = sb[i]?.startsWith('{') ? 1 : 0;
    if (ta !== tb) return ta - tb;
  }
  return 0;
}

export interface MatchOptions {
  /**
   * Parameters that stand for one literal segment of the host (the media server's plugin name): a value
   * equal to it in any letter case is rewritten to this spelling.
   */
  literalParams?: Readonly<Record<string, string>>;
}

export class OperationTable {
  private readonly routes: Route[];

  constructor(doc: OpenApiNode) {
    this.routes = walkOperations(doc)
      .map((op) => {
        const names: string[] = [];
        const source = op.path
          .split(/(\{[^{}]+\})/)
          .map((part) => {
            if (!part.startsWith('{')) return literal(part);
            names.push(part.slice(1, -1));
            return '([^/]+)';
          })
          .join('');
        return {
          method: op.method,
          template: op.path,
          operationId: op.operationId,
          operation: op.operation,
          names,
          pattern: new RegExp(`^${source}/?$`, 'i'),
        };
      })
      .sort((a, b) => bySpecificity(a.template, b.template));
  }

  /** The operation of `method pathname` (HEAD answers as GET where the document has no HEAD). */
  find(method: string, pathname: string, options: MatchOptions = {}): MatchedOperation | undefined {
    const lower = method.toLowerCase();
    return (
      this.findExact(lower, pathname, options) ??
      (lower === 'head' ? this.findExact('get', pathname, options) : undefined)
    );
  }

  /** Every route's pattern, as the request path is matched with them (the regular-expression check). */
  patterns(): RegExp[] {
    return this.routes.map((route) => route.pattern);
  }

  /**
   * The methods the document gives the path (HEAD with GET), upper case: what a 405 names in `Allow`.
   * `served` leaves out operations not served now (a plugin that is not loaded).
   */
  methodsAt(
    pathname: string,
    options: MatchOptions = {},
    served: (operation: MatchedOperation) => boolean = () => true,
  ): string[] {
    const methods = new Set<string>();
    for (const route of this.routes) {
      if (!route.pattern.test(pathname)) continue;
      const found = this.findExact(route.method, pathname, options);
      if (!found || found.operationId !== route.operationId || !served(found)) continue;
      methods.add(route.method.toUpperCase());
      if (route.method === 'get') methods.add('HEAD');
    }
    return [...methods].sort();
  }

  private findExact(method: string, pathname: string, options: MatchOptions): MatchedOperation | undefined {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const match = route.pattern.exec(pathname);
      if (!match) continue;
      const rawParams: Record<string, string> = {};
      route.names.forEach((name, i) => {
        const value = match[i + 1] ?? '';
        const fixed = options.literalParams?.[name];
        rawParams[name] =
          fixed !== undefined && decoded(value)?.toLowerCase() === fixed.toLowerCase() ? fixed : value;
      });
      return {
        operationId: route.operationId,
        method: route.method,
        template: route.template,
        operation: route.operation,
        rawParams,
        path: route.template.replace(/\{([^{}]+)\}/g, (_whole, name: string) => rawParams[name] ?? ''),
      };
    }
    return undefined;
  }
}

export function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** A path parameter of the matched operation, decoded (undefined when absent or not valid percent-encoding). */
export function pathParam(operation: MatchedOperation, name: string): string | undefined {
  const raw = operation.rawParams[name];
  return raw === undefined ? undefined : decoded(raw);
}

/** What the front door (front-door.ts) keeps in the request's context. */
/** The operation the front door matched (front-door.ts writes it). */
export const MATCHED_OPERATION = contextKey<MatchedOperation>('the matched operation');

/**
 * The operation the front door matched for this request. Every request that gets past the front door has
 * one; undefined only before it, or on a connection that is no HTTP request of the document (a WebSocket).
 */
export function matchedOperation(req: IncomingMessage): MatchedOperation | undefined {
  return readContext(req, MATCHED_OPERATION);
}
