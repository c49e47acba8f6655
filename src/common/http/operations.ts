/**
 * Typed handlers per operationId, and the dispatcher that runs the one of the operation the front door
 * matched. An operation without a handler, or a handler without an operation, stops the app from starting.
 */
import diagnostics from 'node:diagnostics_channel';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type OpenApiNode, type OperationEntry, walkOperations } from '../openapi';
import { matchedOperation } from './matched-operation';

type JsonOf<C> = C extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON bodies of every documented response of an operation (a union). */
export type ResponseBody<Op> = Op extends { responses: infer R }
  ? { [S in keyof R]: JsonOf<R[S]> }[keyof R]
  : never;
export type PathParams<Op> = Op extends { parameters: { path: infer P } } ? P : Record<string, never>;
export type QueryParams<Op> = Op extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : Record<string, never>;
export type RequestBody<Op> = Op extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : Op extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B | undefined
    : undefined;

export type TypedRequest<Op> = Request<PathParams<Op>, ResponseBody<Op>, RequestBody<Op>, QueryParams<Op>>;
export type TypedResponse<Op> = Response<ResponseBody<Op>>;

/** A handler for one operation: validated input in, typed body out. Rejections reach the error mapper. */
export type OperationHandler<Op> = (
  req: TypedRequest<Op>,
  res: TypedResponse<Op>,
  next: NextFunction,
) => unknown;

/**
 * `Handlers<operations>`: one handler per operationId of a service's generated `operations`. A service's
 * map is written `{ ... } satisfies Handlers<operations>`, so a missing handler, or one whose body or
 * parameters belong to another operation, fails the compiler.
 */
export type Handlers<Ops> = { [K in keyof Ops]: OperationHandler<Ops[K]> };

/** What the mounting walk needs of any typed handler map (every `Handlers<Ops>` is one). */
export type MountableHandlers = Readonly<
  Record<string, (req: never, res: never, next: NextFunction) => unknown>
>;

export type DocumentedOperation = OperationEntry;

/** The document's operations, by the common walker (src/common/openapi.ts). */
export const documentedOperations = walkOperations;

/**
 * Told each time a handler starts, with its service and operation id (`diagnostics_channel`, free when
 * nobody listens): the request-target corpus (security/request-targets.test.ts) proves with it that a
 * request the front door refused ran no handler.
 */
export const handlerStarts = diagnostics.channel('specyard:handler-start');

/**
 * Every handler of the document, reached by the operation the front door matched (never by a path of its
 * own): an operation without a handler, or a handler without an operation, stops the app from starting.
 * The path parameters are the validator's, read from the same spelling and converted to their types.
 */
export function operationDispatcher(
  service: string,
  doc: OpenApiNode,
  handlers: MountableHandlers,
): RequestHandler {
  const operations = documentedOperations(doc);
  const missing = operations.filter((op) => !handlers[op.operationId]).map((op) => op.operationId);
  const known = new Set(operations.map((op) => op.operationId));
  const extra = Object.keys(handlers).filter((id) => !known.has(id));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `handlers do not match the document: missing ${missing.join(', ') || 'none'}; undocumented ${extra.join(', ') || 'none'}`,
    );
  }
  // Express types its handlers loosely; the map was checked against the operations above.
  const byId = new Map(Object.entries(handlers) as [string, RequestHandler][]);
  return (req, res, next) => {
    const operation = matchedOperation(req);
    const handler = operation && byId.get(operation.operationId);
    if (!operation || !handler) return next(new Error('a request reached the handlers with no operation'));
    const params = (req as { openapi?: { pathParams?: Record<string, string> } }).openapi?.pathParams;
    if (params) req.params = params;
    if (handlerStarts.hasSubscribers) handlerStarts.publish({ service, operationId: operation.operationId });
    return handler(req, res, next);
  };
}

/**
 * The work that belongs to one operation (a rate limit, a body reader, a fast path), run for that
 * operation only, in order, after the service's checks and before the body is read: the route hooks of
 * the house style, attached by operation id and run by the front door's pipeline.
 */
export type OperationHooks = Readonly<Partial<Record<string, readonly RequestHandler[]>>>;

export function runOperationHooks(doc: OpenApiNode, hooks: OperationHooks): RequestHandler {
  const known = new Set(documentedOperations(doc).map((op) => op.operationId));
  const unknown = Object.keys(hooks).filter((id) => !known.has(id));
  if (unknown.length > 0) throw new Error(`hooks for operations the document lacks: ${unknown.join(', ')}`);
  return (req, res, next) => {
    const steps = hooks[matchedOperation(req)?.operationId ?? ''] ?? [];
    let at = 0;
    const step = (error?: unknown) => {
      if (error !== undefined && error !== null) return next(error);
      const hook = steps[at++];
      if (!hook) return next();
      try {
        const result: unknown = hook(req, res, step);
        if (result instanceof Promise) result.catch(next);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
