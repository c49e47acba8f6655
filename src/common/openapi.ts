/**
 * The one walk over an OpenAPI document: its operations (every method OpenAPI 3.0 names, head and options
 * included), local `$ref` resolution and an operation's parameters. The app mounts its routes with it
 * (http/operations.ts), the contract harness sends its examples with it (contract-tests/lib), and the
 * generator writes the `npm run api` command table with it (scripts/generate.ts).
 */

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked generically.
export type OpenApiNode = any;

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface OperationEntry {
  method: HttpMethod;
  /** The templated path, `/api/chats/{chat_ref}`. */
  path: string;
  operationId: string;
  /** The operation object itself. */
  operation: OpenApiNode;
  /** JSON pointer to the operation inside the document. */
  pointer: string;
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

export function pointerOf(...segments: (string | number)[]): string {
  return `#/${segments.map((s) => escapePointer(String(s))).join('/')}`;
}

/** Every operation of the document, in document order; one without an operationId is an error. */
export function walkOperations(doc: OpenApiNode): OperationEntry[] {
  const found: OperationEntry[] = [];
  for (const [path, rawItem] of Object.entries<OpenApiNode>(doc.paths ?? {})) {
    const item = deref(doc, rawItem);
    for (const method of HTTP_METHODS) {
      const operation = item?.[method];
      if (!operation) continue;
      if (typeof operation.operationId !== 'string')
        throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      found.push({
        method,
        path,
        operationId: operation.operationId,
        operation,
        pointer: pointerOf('paths', path, method),
      });
    }
  }
  return found;
}

/** Follows a local `$ref` chain ("#/components/...") to the object it names. */
export function deref(doc: OpenApiNode, node: OpenApiNode): OpenApiNode {
  let current = node;
  const seen = new Set<string>();
  while (current && typeof current.$ref === 'string' && current.$ref.startsWith('#/')) {
    if (seen.has(current.$ref)) throw new Error(`circular $ref ${current.$ref}`);
    seen.add(current.$ref);
    current = current.$ref
      .slice(2)
      .split('/')
      .map(unescapePointer)
      .reduce((at: OpenApiNode, key: string) => at?.[key], doc);
  }
  return current;
}

/** An operation's parameters, path-level ones included (the operation's own win), references followed. */
export function parametersOf(
  doc: OpenApiNode,
  op: Pick<OperationEntry, 'path' | 'operation'>,
): OpenApiNode[] {
  const pathLevel = deref(doc, doc.paths?.[op.path])?.parameters ?? [];
  const own = op.operation.parameters ?? [];
  const byKey = new Map<string, OpenApiNode>();
  for (const p of [...pathLevel, ...own].map((p: OpenApiNode) => deref(doc, p)))
    byKey.set(`${p.in}:${p.name}`, p);
  return [...byKey.values()];
}
