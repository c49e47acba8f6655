import { describe, expect, it } from 'vitest';
import {
  deref,
  describeErrors,
  loadDocument,
  type Node,
  operationsOf,
  parametersOf,
  pointerOf,
  SchemaValidator,
  SERVICES,
} from '../lib/document';

interface ExampleSite {
  where: string;
  pointer: string;
  example: unknown;
}

/** Every `example` next to a schema in the bundled document: parameters, bodies, responses, headers. */
function exampleSites(doc: Node): ExampleSite[] {
  const sites: ExampleSite[] = [];
  const content = (base: string[], where: string, node: Node) => {
    for (const [type, media] of Object.entries<Node>(node?.content ?? {})) {
      if (media.example !== undefined) {
        sites.push({
          where: `${where} ${type}`,
          pointer: pointerOf(...base, 'content', type, 'schema'),
          example: media.example,
        });
      }
      // A stream documented as text: each line of its example is checked against the line schema.
      if (
        type === 'application/x-ndjson' &&
        media.schema?.['x-ndjson-line'] &&
        typeof media.example === 'string'
      ) {
        const pointer = pointerOf(...base, 'content', type, 'schema', 'x-ndjson-line');
        const lines = media.example.split('\n').filter((line: string) => line.trim());
        for (const [i, line] of lines.entries()) {
          sites.push({ where: `${where} ${type} line ${i + 1}`, pointer, example: JSON.parse(line) });
        }
      }
      for (const [name, ex] of Object.entries<Node>(media.examples ?? {})) {
        const value = deref(doc, ex).value;
        sites.push({
          where: `${where} ${type} example ${name}`,
          pointer: pointerOf(...base, 'content', type, 'schema'),
          example: value,
        });
      }
    }
  };
  const located = (node: Node, fallback: string[]): string[] =>
    node?.$ref
      ? node.$ref
          .slice(2)
          .split('/')
          .map((s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      : fallback;

  for (const op of operationsOf(doc)) {
    const base = ['paths', op.path, op.method];
    for (const [i, raw] of (op.operation.parameters ?? []).entries()) {
      const param = deref(doc, raw);
      if (param.example !== undefined) {
        const at = [...located(raw, [...base, 'parameters', String(i)]), 'schema'];
        sites.push({
          where: `${op.operationId} parameter ${param.name}`,
          pointer: pointerOf(...at),
          example: param.example,
        });
      }
    }
    if (op.operation.requestBody) {
      const raw = op.operation.requestBody;
      content(located(raw, [...base, 'requestBody']), `${op.operationId} request`, deref(doc, raw));
    }
    for (const [status, raw] of Object.entries<Node>(op.operation.responses ?? {})) {
      const at = located(raw, [...base, 'responses', status]);
      const response = deref(doc, raw);
      content(at, `${op.operationId} ${status}`, response);
      for (const [name, rawHeader] of Object.entries<Node>(response.headers ?? {})) {
        const header = deref(doc, rawHeader);
        const example = header.example ?? header.schema?.example;
        if (example !== undefined) {
          const hat = [...located(rawHeader, [...at, 'headers', name]), 'schema'];
          sites.push({
            where: `${op.operationId} ${status} header ${name}`,
            pointer: pointerOf(...hat),
            example,
          });
        }
      }
    }
  }
  for (const [name, schema] of Object.entries<Node>(doc.components?.schemas ?? {})) {
    if (schema.example !== undefined) {
      sites.push({
        where: `schema ${name}`,
        pointer: pointerOf('components', 'schemas', name),
        example: schema.example,
      });
    }
  }
  return sites;
}

describe.each(SERVICES)('%s examples', (service) => {
  const doc = loadDocument(service);
  const validator = new SchemaValidator(service, doc);
  const sites = exampleSites(doc);

  it('has an example for every operation response with a body', () => {
    const missing = operationsOf(doc).flatMap((op) =>
      Object.entries<Node>(op.operation.responses ?? {}).flatMap(([status, raw]) =>
        Object.entries<Node>(deref(doc, raw).content ?? {})
          .filter(([type, media]) => type.includes('json') && media.example === undefined && !media.examples)
          .map(([type]) => `${op.operationId} ${status} ${type}`),
      ),
    );
    expect(missing).toEqual([]);
  });

  it('has every required parameter exemplified', () => {
    const missing = operationsOf(doc).flatMap((op) =>
      parametersOf(doc, op)
        .filter(
          (p) =>
            (p.required || p.in === 'path') && p.example === undefined && p.schema?.example === undefined,
        )
        .map((p) => `${op.operationId} ${p.in} ${p.name}`),
    );
    expect(missing).toEqual([]);
  });

  it('validates every example against its own schema', () => {
    expect(sites.length).toBeGreaterThan(0);
    const invalid = sites
      .map((site) => ({ site, errors: validator.validate(site.pointer, site.example) }))
      .filter(({ errors }) => errors.length > 0)
      .map(({ site, errors }) => `${site.where}: ${describeErrors(errors)}`);
    expect(invalid).toEqual([]);
  });
});
