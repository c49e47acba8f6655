import { readFileSync } from 'node:fs';
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
