/**
 * What one request learns on its way through a service, kept in one typed object per request: the
 * operation the front door matched (every service), then what the service's own checks found (the
 * caller, the chat of a `{chat_ref}` route, ...). HTTP requests and WebSocket upgrades alike, keyed by
 * the request; a handler reaches it through `res.req`.
 */
import type { IncomingMessage } from 'node:http';
import type { MatchedOperation } from './matched-operation';

export interface BaseRequestContext {
  /** The document's operation for this request (undefined: none; the service answers 404). */
  operation?: MatchedOperation;
}

const contexts = new WeakMap<IncomingMessage, BaseRequestContext>();

/** The request's context, typed by the service that reads it (`requestContext<ArchiveRequestContext>(req)`). */
export function requestContext<T extends object = object>(
  req: IncomingMessage,
): BaseRequestContext & Partial<T> {
  let context = contexts.get(req);
  if (!context) {
    context = {};
    contexts.set(req, context);
  }
  return context as BaseRequestContext & Partial<T>;
}
