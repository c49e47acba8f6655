/**
 * What one request learns on its way through a service, kept per request: the operation the front door
 * matched (every service; matched-operation.ts), then what the service's own checks found (the caller,
 * the chat of a `{chat_ref}` route, ...). HTTP requests and WebSocket upgrades alike, keyed by the request;
 * a handler reaches it through `res.req`.
 *
 * Each entry has a key, declared once beside the code that writes it with the type of its value
 * (`contextKey<Principal>('…')`): a read through the key is typed by that declaration, and a key nobody
 * declared cannot be spelled (a string key, or a reader's own idea of the type, would compile wrong).
 */
import type { IncomingMessage } from 'node:http';

/** A key of the request context, typed by its value. */
export interface ContextKey<T> {
  readonly description: string;
  /** The value's type, for the compiler only (never set). */
  readonly valueType?: (value: T) => T;
}

export function contextKey<T>(description: string): ContextKey<T> {
  return Object.freeze({ description });
}

const contexts = new WeakMap<IncomingMessage, Map<ContextKey<unknown>, unknown>>();

/** The value the request's context holds under `key`; undefined before anything wrote it. */
export function readContext<T>(req: IncomingMessage, key: ContextKey<T>): T | undefined {
  return contexts.get(req)?.get(key as ContextKey<unknown>) as T | undefined;
}

export function writeContext<T>(req: IncomingMessage, key: ContextKey<T>, value: T): void {
  let context = contexts.get(req);
  if (!context) {
    context = new Map();
    contexts.set(req, context);
  }
  context.set(key as ContextKey<unknown>, value);
}
