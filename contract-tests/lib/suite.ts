import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  loadDocument,
  type Node,
  type Operation,
  operationsOf,
  SchemaValidator,
  type Service,
} from './document';
import { buildRequest, type CheckedResponse, type Credentials, checkResponse } from './exchange';
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
 * Sends each operation's documented example request and checks the answer against the document.
 * On Prism every answer must be a 2xx; on a live server any documented status is accepted here (the
 * live suites seed data and assert statuses of their own).
 */
export function itSendsEveryDocumentedExample(
  ctx: ContractContext,
  credentials: (doc: Node) => Credentials,
): void {
  const ops = operationsOf(ctx.doc);
  it.each(ops.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    '%s answers as documented',
    async (_name, op) => {
      const { url, init } = buildRequest(ctx.doc, op, ctx.target().url, credentials(ctx.doc));
      const checked = await checkResponse(
        ctx.doc,
        new SchemaValidator(ctx.service, ctx.doc),
        op,
        await fetch(url, init),
      );
      expect(checked.problems).toEqual([]);
      if (ctx.target().kind === 'prism') expect(Math.floor(checked.status / 100)).toBe(2);
    },
  );
}
