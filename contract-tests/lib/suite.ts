import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  loadDocument,
  type Node,
  type Operation,
  operationsOf,
  SchemaValidator,
  type Service,
} from './document';
import {
  type BuiltRequest,
  buildRequest,
  type CheckedResponse,
  type Credentials,
  checkResponse,
} from './exchange';
import { contractTarget, type Target } from './target';

export interface ContractContext {
  service: Service;
  doc: Node;
  target: () => Target;
  /** Checks a response to the named operation against the document; returns the parsed body. */
  conforms(operationId: string, res: Response): Promise<CheckedResponse>;
  /** A fetch that keeps a copy of each answer, for clients (openapi-fetch) that consume the body. */
  recordingFetch(): { fetch: typeof fetch; last(): Response };
}

export function operationById(doc: Node, operationId: string): Operation {
  const op = operationsOf(doc).find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  return op;
}

/**
 * Registers the suite's target lifecycle and returns the context the service's tests use.
 * Call at the top of a `describe` block. `start` gives the target: by default the one `CONTRACT_TARGET`
 * names; a live suite passes a function that starts the real server in-process (port 0, seeded store)
 * and returns `{ kind: 'live', url, stop }`.
 */
export function useContract(
  service: Service,
  start: () => Promise<Target> = () => contractTarget(service),
): ContractContext {
  const doc = loadDocument(service);
  const validator = new SchemaValidator(service, doc);
  let target: Target | undefined;
  beforeAll(async () => {
    target = await start();
  }, 60_000);
  afterAll(async () => {
    await target?.stop();
  });
  return {
    service,
    doc,
    target: () => {
      if (!target) throw new Error('contract target is not running');
      return target;
    },
    conforms: (operationId, res) => checkResponse(doc, validator, operationById(doc, operationId), res),
    recordingFetch() {
      const seen: Response[] = [];
      return {
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          seen.push(res.clone());
          return res;
        },
        last: () => {
          const res = seen.at(-1);
          if (!res) throw new Error('no response recorded');
          return res;
        },
      };
    },
  };
}

/**
 * The status a WebSocket upgrade request to `url` gets (fetch cannot send one): 101 when the server
 * switches protocols, else the status of its plain answer.
 */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      headers: {
        ...headers,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': randomBytes(16).toString('base64'),
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The first 2xx status an operation documents (else its first 3xx, for an operation that only redirects,
 * or 101 for a WebSocket): what its example request is expected to get.
 */
export function documentedSuccess(op: Operation): number {
  const statuses = Object.keys(op.operation.responses ?? {})
    .map(Number)
    .sort((a, b) => a - b);
  const success =
    statuses.find((status) => status >= 200 && status < 300) ??
    statuses.find((status) => status >= 300 && status < 400) ??
    statuses.find((status) => status === 101);
  if (success === undefined) throw new Error(`${op.operationId} documents no success status`);
  return success;
}

/**
 * Sends each operation's documented example request and checks the answer against the document, and
 * its status against the one expected of that example: the operation's documented success, unless
 * `expected` names another for it (an example that cannot succeed on the target, e.g. a token that
 * matches nothing). Any other status fails, documented or not (a 500 included).
 */
export function itSendsEveryDocumentedExample(
  ctx: ContractContext,
  credentials: (doc: Node) => Credentials,
  expected: Readonly<Record<string, number>> = {},
  /** Changes an operation's example request before it is sent (a signature over its body and time). */
  prepare: (op: Operation, request: BuiltRequest) => void = () => {},
): void {
  const ops = operationsOf(ctx.doc);
  for (const id of Object.keys(expected)) {
    if (!ops.some((op) => op.operationId === id))
      throw new Error(`expected status for unknown operation ${id}`);
  }
  const validator = new SchemaValidator(ctx.service, ctx.doc);
  it.each(ops.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    '%s answers its example as expected',
    async (_name, op) => {
      const request = buildRequest(ctx.doc, op, ctx.target().url, credentials(ctx.doc));
      prepare(op, request);
      const { url, init } = request;
      const checked =
        documentedSuccess(op) === 101
          ? { status: await upgradeStatus(url, init.headers), problems: [] }
          : await checkResponse(ctx.doc, validator, op, await fetch(url, init));
      expect({ operation: op.operationId, status: checked.status, problems: checked.problems }).toEqual({
        operation: op.operationId,
        status: expected[op.operationId] ?? documentedSuccess(op),
        problems: [],
      });
    },
  );
}
