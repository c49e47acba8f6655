/**
 * The bundled documents in generated/, and ajv validators built from them. Prism validates loosely, so
 * every contract check validates the answers itself against the same document.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

import { loadBundledDocument } from '../../src/common/documents';
import type { Service } from '../../src/common/services';

export { ROOT, SERVICES, type Service } from '../../src/common/services';
export const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked generically.
export type Node = any;

export interface Operation {
  method: (typeof METHODS)[number];
  path: string;
  operationId: string;
  operation: Node;
  /** JSON pointer to the operation inside the bundled document. */
  pointer: string;
}

export function loadDocument(service: Service): Node {
  return loadBundledDocument(service);
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

export function pointerOf(...segments: (string | number)[]): string {
  return `#/${segments.map((s) => escapePointer(String(s))).join('/')}`;
}

export function operationsOf(doc: Node): Operation[] {
  const found: Operation[] = [];
  for (const [p, item] of Object.entries<Node>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      found.push({
        method,
        path: p,
        operationId: operation.operationId,
        operation,
        pointer: pointerOf('paths', p, method),
      });
    }
  }
  return found;
}

/** Follows a local `$ref` chain ("#/components/...") to the object it names. */
export function deref(doc: Node, node: Node): Node {
  let current = node;
  while (current && typeof current.$ref === 'string' && current.$ref.startsWith('#/')) {
    current = current.$ref
      .slice(2)
      .split('/')
      .map((s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((at: Node, key: string) => at?.[key], doc);
  }
  return current;
}

/** Parameters of an operation, path-level ones included, references followed. */
export function parametersOf(doc: Node, op: Operation): Node[] {
  const pathLevel = doc.paths[op.path].parameters ?? [];
  const own = op.operation.parameters ?? [];
  const byKey = new Map<string, Node>();
  for (const p of [...pathLevel, ...own].map((p: Node) => deref(doc, p))) byKey.set(`${p.in}:${p.name}`, p);
  return [...byKey.values()];
}

export class SchemaValidator {
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(
    private readonly service: Service,
    doc: Node = loadDocument(service),
  ) {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema(doc, service);
  }

  /** Validates `value` against the schema at `pointer` (a JSON pointer into the bundled document). */
  validate(pointer: string, value: unknown): ErrorObject[] {
    let fn = this.cache.get(pointer);
    if (!fn) {
      fn = this.ajv.compile({ $ref: `${this.service}${pointer}` });
      this.cache.set(pointer, fn);
    }
    return fn(value) ? [] : [...(fn.errors ?? [])];
  }
}

export function describeErrors(errors: ErrorObject[]): string {
  return errors.map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`).join('; ');
}
