import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { bundledDocumentPath, type Service } from './services';

const cache = new Map<Service, Record<string, unknown>>();

/** The bundled OpenAPI document of a service (generated/<service>/openapi.json), read once. */
export function loadBundledDocument(service: Service): Record<string, unknown> {
  let doc = cache.get(service);
  if (!doc) {
    doc = JSON.parse(readFileSync(bundledDocumentPath(service), 'utf8')) as Record<string, unknown>;
    cache.set(service, doc);
  }
  return doc;
}

/**
 * A validator of one of the document's component schemas, with the formats the request validator
 * checks (date-time among them) and `int64` as a safe integer, so it accepts no more than the
 * validator does. Bodies holding numbers beyond 2^53 never reach one (they are read exactly elsewhere).
 */
export function compileComponentSchema<T>(service: Service, schema: string): ValidateFunction<T> {
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('int64', { type: 'number', validate: Number.isSafeInteger });
  ajv.addSchema(loadBundledDocument(service), service);
  return ajv.compile<T>({ $ref: `${service}#/components/schemas/${schema}` });
}
