/**
 * `npm run api -- <service> <operationId> [--param value ...]`: calls any documented operation of a running
 * server (or mock) through the generated typed client, from the command table `npm run generate` writes.
 */
import { readFileSync } from 'node:fs';
import { createArchiveClient } from '../generated/archive/client';
import { createFuelClient } from '../generated/fuel/client';
import { createSubtitlesClient } from '../generated/subtitles/client';
import { isMainModule } from '../src/common/cli/main-module';
import type { HttpMethod } from '../src/common/openapi';
import { isService, SERVICES, type Service, servicePort } from '../src/common/services';

export interface ApiCommand {
  method: HttpMethod;
  path: string;
  summary: string;
  parameters: { name: string; in: string; required: boolean; type: string; enum?: unknown[] }[];
  body: 'required' | 'optional' | 'none';
}

export class UsageError extends Error {}

const USAGE = `usage: npm run api -- <${SERVICES.join('|')}> [<operationId> [--<parameter> <value> ...]
                     [--body <json> | --body @<file>] [--header "<Name>: <value>" ...] [--base-url <url>]]
With only a service, lists its operations; with --help after an operation, lists its parameters.`;

export interface ParsedCall {
  operationId: string;
  params: {
    path: Record<string, unknown>;
    query: Record<string, unknown>;
    header: Record<string, string>;
    cookie: Record<string, string>;
  };
  body?: unknown;
  headers: Record<string, string>;
  baseUrl?: string;
}

function coerce(value: string, type: string, name: string): unknown {
  if (type === 'integer' || type === 'number') {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || (type === 'integer' && !Number.isInteger(n))) {
      throw new UsageError(
        `--${name} must be ${type === 'integer' ? 'a whole number' : 'a number'}, not "${value}"`,
      );
    }
    return n;
  }
  if (type === 'boolean') {
    if (value !== 'true' && value !== 'false')
      throw new UsageError(`--${name} must be true or false, not "${value}"`);
    return value === 'true';
  }
  return value;
}

function readBody(raw: string): unknown {
  const text = raw.startsWith('@') ? readFileSync(raw.slice(1), 'utf8') : raw;
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--body must be JSON (or @file holding JSON)`);
  }
}

/** Turns the words after the operationId into client parameters, checked against the command table. */
export function parseCall(operationId: string, command: ApiCommand, words: string[]): ParsedCall {
  const call: ParsedCall = {
    operationId,
    params: { path: {}, query: {}, header: {}, cookie: {} },
    headers: {},
  };
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (!word.startsWith('--')) throw new UsageError(`unexpected "${word}"`);
    const eq = word.indexOf('=');
    const name = eq > 0 ? word.slice(2, eq) : word.slice(2);
    const value = eq > 0 ? word.slice(eq + 1) : words[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (name === 'body') {
      if (command.body === 'none') throw new UsageError(`${operationId} takes no body`);
      call.body = readBody(value);
    } else if (name === 'header') {
      const colon = value.indexOf(':');
      if (colon < 1) throw new UsageError(`--header must look like "Name: value"`);
      call.headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
    } else if (name === 'base-url') {
      call.baseUrl = value;
    } else {
      const param = command.parameters.find((p) => p.name === name);
      if (!param) throw new UsageError(`${operationId} has no parameter --${name}`);
      const typed = coerce(value, param.type, name);
      if (param.enum && !param.enum.includes(typed)) {
        throw new UsageError(`--${name} must be one of ${param.enum.join(', ')}, not "${value}"`);
      }
      const where = param.in as keyof ParsedCall['params'];
      (call.params[where] as Record<string, unknown>)[name] = typed;
    }
  }
  const missing = command.parameters.filter(
    (p) => p.required && !(p.name in (call.params[p.in as keyof ParsedCall['params']] ?? {})),
  );
  if (missing.length > 0)
    throw new UsageError(`${operationId} needs ${missing.map((p) => `--${p.name}`).join(', ')}`);
  if (command.body === 'required' && call.body === undefined)
    throw new UsageError(`${operationId} needs --body`);
  return call;
}

function describe(operationId: string, command: ApiCommand): string {
  const params = command.parameters.map(
    (p) =>
      `  --${p.name} <${p.enum ? p.enum.join('|') : p.type}>  (${p.in}${p.required ? ', required' : ''})`,
  );
  if (command.body !== 'none') params.push(`  --body <json>|@<file>  (${command.body})`);
  return [
    `${operationId}: ${command.method.toUpperCase()} ${command.path}`,
    `  ${command.summary}`,
    ...params,
  ].join('\n');
}

const clients = {
  subtitles: createSubtitlesClient,
  fuel: createFuelClient,
  archive: createArchiveClient,
} satisfies Record<Service, unknown>;

export async function runApiCli(
  argv: string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const [service, operationId, ...words] = argv;
  if (!isService(service)) {
    err.write(`${USAGE}\n`);
    return 2;
  }
  const { commands } = (await import(`../generated/${service}/commands.ts`)) as {
    commands: Record<string, ApiCommand>;
  };
  if (!operationId || operationId === '--help') {
    out.write(
      `${Object.entries(commands)
        .map(([id, c]) => `${id.padEnd(32)} ${c.method.toUpperCase().padEnd(6)} ${c.path}`)
        .join('\n')}\n`,
    );
    return 0;
  }
  const command = commands[operationId];
  if (!command) {
    err.write(`${service} has no operation "${operationId}" (npm run api -- ${service} lists them)\n`);
    return 2;
  }
  if (words.includes('--help')) {
    out.write(`${describe(operationId, command)}\n`);
    return 0;
  }
  let call: ParsedCall;
  try {
    call = parseCall(operationId, command, words);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err.write(`${error.message}\n${describe(operationId, command)}\n`);
    return 2;
  }
  let baseUrl: string;
  try {
    baseUrl = call.baseUrl ?? env.SPECYARD_BASE_URL ?? `http://127.0.0.1:${servicePort(service, env)}`;
  } catch (error) {
    err.write(`${error instanceof Error ? error.message : String(error)}
`);
    return 2;
  }
  const client = clients[service]({ baseUrl, headers: call.headers });
  // The command table is checked against the document above; the typed client is used untyped here.
  const request = client.request as unknown as (
    m: string,
    p: string,
    init: object,
  ) => Promise<{ response: Response; error?: unknown }>;
  const init = { params: call.params, body: call.body, parseAs: 'stream' };
  let response: Response;
  let error: unknown;
  try {
    ({ response, error } = await request(command.method, command.path, init));
  } catch (failure) {
    const cause =
      failure instanceof Error
        ? ((failure.cause as Error | undefined)?.message ?? failure.message)
        : String(failure);
    err.write(`could not reach ${baseUrl}: ${cause}\n`);
    return 1;
  }
  err.write(`${response.status} ${response.statusText}\n`);
  // A 2xx body is left unread (`parseAs: 'stream'`); the client has already read an error body and
  // hands it over as `error` (parsed JSON, or the text), so the response cannot be read a second time.
  if (!response.ok) {
    const shown = typeof error === 'string' ? error : `${JSON.stringify(error ?? null, null, 2)}\n`;
    out.write(shown.endsWith('\n') || shown === '' ? shown : `${shown}\n`);
    return 1;
  }
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const isJson = /^application\/(.+\+)?json\b/.test(type);
  out.write(isJson && text ? `${JSON.stringify(JSON.parse(text), null, 2)}\n` : text);
  return 0;
}

if (isMainModule(import.meta.url)) {
  runApiCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
