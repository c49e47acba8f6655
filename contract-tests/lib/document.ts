/**
 * The bundled documents in generated/, and ajv validators built from them. Prism validates loosely, so
 * every contract check validates the answers itself against the same document.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

import { loadBundledDocument } from '../../src/common/documents';
import {
  HTTP_METHODS,
  type OpenApiNode,
  type OperationEntry,
  walkOperations,
} from '../../src/common/openapi';
import type { Service } from '../../src/common/services';

export { deref, parametersOf, pointerOf } from '../../src/common/openapi';
export { ROOT, SERVICES, type Service } from '../../src/common/services';
export const METHODS = HTTP_METHODS;

export type Node = OpenApiNode;
export type Operation = OperationEntry;

/** Every operation of a document: the common walker the app and the generator use too. */
export const operationsOf = walkOperations;

export function loadDocument(service: Service): Node {
  return loadBundledDocument(service);
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
