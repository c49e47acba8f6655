/**
 * One request/response exchange driven by the document: the request is built from the documented
 * examples, the answer is checked against the documented status, media type, headers and schema.
 */
import {
  deref,
  describeErrors,
  type Node,
  type Operation,
  parametersOf,
  pointerOf,
  type SchemaValidator,
} from './document';

/** A credential value per security scheme name, as the client sends it (the whole header value). */
export type Credentials = Record<string, string>;

export interface BuiltRequest {
  url: string;
  init: RequestInit & { headers: Record<string, string> };
}

export function buildRequest(
  doc: Node,
  op: Operation,
  baseUrl: string,
  credentials: Credentials = {},
  overrides: { query?: Record<string, string>; body?: unknown } = {},
): BuiltRequest {
  let p = op.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = { accept: '*/*' };
  const cookies: string[] = [];
  for (const param of parametersOf(doc, op)) {
    const example = param.example ?? param.schema?.example ?? param.schema?.default;
    if (param.in === 'path') {
      p = p.replace(`{${param.name}}`, encodeURIComponent(String(example)));
    } else if (param.required && example !== undefined) {
      if (param.in === 'query') query.set(param.name, String(example));
      if (param.in === 'header') headers[param.name.toLowerCase()] = String(example);
      if (param.in === 'cookie') cookies.push(`${param.name}=${example}`);
    }
  }
  for (const [k, v] of Object.entries(overrides.query ?? {})) query.set(k, v);

  const security: Node[] = op.operation.security ?? doc.security ?? [];
  const requirement = security.find((req: Node) => Object.keys(req).every((name) => credentials[name]));
  for (const name of Object.keys(requirement ?? {})) {
    const scheme = doc.components.securitySchemes[name];
    const value = credentials[name] as string;
    if (scheme.type === 'http')
      headers.authorization = `${scheme.scheme === 'bearer' ? 'Bearer' : 'Basic'} ${value}`;
    else if (scheme.in === 'header') headers[scheme.name.toLowerCase()] = value;
    else if (scheme.in === 'query') query.set(scheme.name, value);
    else if (scheme.in === 'cookie') cookies.push(`${scheme.name}=${value}`);
  }
  if (cookies.length > 0) headers.cookie = cookies.join('; ');

  // A documented redirect is the answer under test, not the page it points at.
  const init: BuiltRequest['init'] = { method: op.method.toUpperCase(), headers, redirect: 'manual' };
  const requestBody = deref(doc, op.operation.requestBody);
  const json = requestBody?.content?.['application/json'];
  const body = 'body' in overrides ? overrides.body : json?.example;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const qs = query.toString();
  return { url: `${baseUrl}${p}${qs ? `?${qs}` : ''}`, init };
}

export interface CheckedResponse {
  status: number;
  problems: string[];
  body: unknown;
  headers: Headers;
}

const mediaTypeOf = (value: string | null) => (value ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

function matchesMediaType(documented: string, actual: string): boolean {
  if (documented === actual || documented === '*/*') return true;
  const [type, subtype] = documented.split('/');
  return subtype === '*' && actual.startsWith(`${type}/`);
}

/** Checks a live answer against what the document says of this operation and status. */
export async function checkResponse(
  doc: Node,
  validator: SchemaValidator,
  op: Operation,
  res: Response,
): Promise<CheckedResponse> {
  const problems: string[] = [];
  const responses = op.operation.responses ?? {};
  const key = String(res.status) in responses ? String(res.status) : `${String(res.status)[0]}XX`;
  const documented = responses[key]
    ? deref(doc, responses[key])
    : responses.default && deref(doc, responses.default);
  const text = await res.text();
  if (!documented) {
    problems.push(`status ${res.status} is not documented (body: ${text.slice(0, 200)})`);
    return { status: res.status, problems, body: text, headers: res.headers };
  }
  const responsePointer = pointerOf(
    'paths',
    op.path,
    op.method,
    'responses',
    key in responses ? key : 'default',
  );

  for (const [name, header] of Object.entries<Node>(documented.headers ?? {})) {
    const h = deref(doc, header);
    const value = res.headers.get(name);
    if (value === null) {
      if (h.required) problems.push(`header ${name} is missing`);
      continue;
    }
    const schema = h.schema ?? {};
    const typed = schema.type === 'integer' || schema.type === 'number' ? Number(value) : value;
    const headerPointer = header.$ref
      ? `${header.$ref.slice(1)}/schema`
      : `${responsePointer.slice(1)}/headers/${name}/schema`;
    const errors = validator.validate(`#${headerPointer}`, typed);
    if (errors.length > 0) problems.push(`header ${name}: ${value}: ${describeErrors(errors)}`);
  }

  const content: Record<string, Node> = documented.content ?? {};
  const mediaTypes = Object.keys(content);
  let body: unknown = text;
  if (mediaTypes.length === 0) {
    if (text.length > 0) problems.push(`status ${res.status} documents no body, got: ${text.slice(0, 200)}`);
    return { status: res.status, problems, body, headers: res.headers };
  }
  const actual = mediaTypeOf(res.headers.get('content-type'));
  const mediaType = mediaTypes.find((m) => matchesMediaType(m, actual));
  if (!mediaType) {
    problems.push(`content-type ${actual || '(none)'} is not one of ${mediaTypes.join(', ')}`);
    return { status: res.status, problems, body, headers: res.headers };
  }
  const base = documented === responses[key] ? responsePointer : `#${responses[key]?.$ref?.slice(1) ?? ''}`;
  const schemaPointer = `${base}/content/${mediaType.replace(/~/g, '~0').replace(/\//g, '~1')}/schema`;
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
    try {
      body = JSON.parse(text);
    } catch {
      problems.push(`body is not JSON: ${text.slice(0, 200)}`);
      return { status: res.status, problems, body, headers: res.headers };
    }
    const errors = validator.validate(schemaPointer, body);
    if (errors.length > 0) problems.push(`body: ${describeErrors(errors)}`);
  } else if (mediaType === 'application/x-ndjson') {
    const lineSchema = deref(doc, content[mediaType].schema)?.['x-ndjson-line']
      ? `${schemaPointer}/x-ndjson-line`
      : schemaPointer;
    const lines = text.split('\n').filter((line) => line.trim().length > 0);
    body = lines.map((line, i) => {
      try {
        const value = JSON.parse(line);
        const errors = validator.validate(lineSchema, value);
        if (errors.length > 0) problems.push(`line ${i + 1}: ${describeErrors(errors)}`);
        return value;
      } catch {
        problems.push(`line ${i + 1} is not JSON: ${line.slice(0, 200)}`);
        return line;
      }
    });
  }
  return { status: res.status, problems, body, headers: res.headers };
}
