/**
 * What one request learns on its way through a service, kept in one typed object per request: the
 * operation the front door matched (every service; matched-operation.ts), then what the service's own
 * checks found (the caller, the chat of a `{chat_ref}` route, ...). HTTP requests and WebSocket upgrades
 * alike, keyed by the request; a handler reaches it through `res.req`.
 */
import type { IncomingMessage } from 'node:http';

const contexts = new WeakMap<IncomingMessage, object>();

/** The request's context, typed by the part that reads it: `requestContext<ArchiveRequestContext>(req)`. */
export function requestContext<T extends object>(req: IncomingMessage): Partial<T> {
  let context = contexts.get(req);
  if (!context) {
    context = {};
    contexts.set(req, context);
  }
  return context as Partial<T>;
}
