/**
 * Typed handlers per operationId, and the walk that mounts them from the bundled document.
 * An operation without a handler, or a handler without an operation, stops the app from starting.
 */
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { type OpenApiNode, type OperationEntry, walkOperations } from '../openapi';
import { bySpecificity } from './matched-operation';

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

/** `/api/chats/{chat_ref}` → `/api/chats/:chat_ref` (Express 5 path syntax). */
export function expressPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

export function mountOperations(router: Router, doc: OpenApiNode, handlers: MountableHandlers): void {
  const operations = documentedOperations(doc).sort((a, b) => bySpecificity(a.path, b.path));
  const missing = operations.filter((op) => !handlers[op.operationId]).map((op) => op.operationId);
  const known = new Set(operations.map((op) => op.operationId));
  const extra = Object.keys(handlers).filter((id) => !known.has(id));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `handlers do not match the document: missing ${missing.join(', ') || 'none'}; undocumented ${extra.join(', ') || 'none'}`,
    );
  }
  for (const op of operations) {
    // Express types its handlers loosely; the map was checked against the operations above.
    const handler = handlers[op.operationId] as unknown as RequestHandler;
    router[op.method](expressPath(op.path), handler);
  }
}
