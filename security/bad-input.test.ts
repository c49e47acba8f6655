/**
 * Low 6 and 7: bad input answers 400, never 500. Every JSON body of the three services, nested 100,000
 * deep; every integer parameter of the three documents, sent at 2^53 + 1, 2^63, 2^64 and beyond: each is
 * refused with the service's 400 (413 where the body is over the service's limit), by a caller who gets
 * past the access checks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FIXTURE,
  login,
  MASTER,
  PASSWORD_ENV,
  startTestViewer,
  type TestViewer,
} from '../src/archive/http/test-viewer';
import { loadBundledDocument } from '../src/common/documents';
import { documentedOperations } from '../src/common/http/operations';
import { deref, parametersOf } from '../src/common/openapi';
import type { Service } from '../src/common/services';
import { startTestFuel, type TestFuel } from '../src/fuel/testing/server';
import { authHeader, type Server, startSeededServer } from '../src/subtitles/test-support';

const HUGE = ['9007199254740993', '9223372036854775808', '18446744073709551616', '99999999999999999999999'];
const DEEP = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
const PARAMS: Record<string, string> = { plugin: 'Subtitles', chat_ref: FIXTURE.releaseCrew.ref };

interface Target {
  url: string;
  headers: Record<string, string>;
}

function pathWith(
  doc: unknown,
  op: Parameters<typeof parametersOf>[1],
  override: Record<string, string> = {},
) {
  const examples = new Map(
    parametersOf(doc, op).map((p: { name: string; example?: unknown; schema?: { example?: unknown } }) => [
      p.name,
      String(p.example ?? p.schema?.example ?? '1'),
    ]),
  );
  return op.path.replace(/\{([^}]+)\}/g, (_w, name: string) =>
    encodeURIComponent(override[name] ?? PARAMS[name] ?? examples.get(name) ?? '1'),
  );
}

function sweep(service: Service, target: () => Target) {
  const doc = loadBundledDocument(service);
  const ops = documentedOperations(doc);
  const withBody = ops.filter((op) => deref(doc, op.operation.requestBody)?.content?.['application/json']);
  it.each(withBody.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    '%s: a body nested 100,000 deep is a 400',
    async (_name, op) => {
      const { url, headers } = target();
      const res = await fetch(`${url}${pathWith(doc, op)}`, {
        method: op.method.toUpperCase(),
        headers: { ...headers, 'content-type': 'application/json' },
        body: DEEP,
      });
      await res.arrayBuffer();
      expect([400, 413]).toContain(res.status);
    },
  );

  const integers = ops.flatMap((op) =>
    parametersOf(doc, op)
      .filter(
        (p: { in: string; schema?: unknown }) =>
          ['query', 'path'].includes(p.in) && deref(doc, p.schema)?.type === 'integer',
      )
      .map(
        (p: { name: string; in: string }) =>
          [`${op.method.toUpperCase()} ${op.path} ${p.in} ${p.name}`, op, p] as const,
      ),
  );
  it.each(integers)('%s beyond its documented maximum is a 400', async (_name, op, param) => {
    const { url, headers } = target();
    for (const value of HUGE) {
      const path = pathWith(doc, op, param.in === 'path' ? { [param.name]: value } : {});
      const query = param.in === 'query' ? `?${param.name}=${value}` : '';
      const res = await fetch(`${url}${path}${query}`, {
        method: op.method.toUpperCase(),
        headers: { ...headers, 'content-type': 'application/json' },
        ...(['post', 'put'].includes(op.method) && { body: '{}' }),
      });
      await res.arrayBuffer();
      expect({ value, status: res.status }).toEqual({ value, status: 400 });
    }
  });
}

describe('archive', () => {
  let viewer: TestViewer;
  let cookie: string;
  beforeAll(async () => {
    viewer = await startTestViewer({
      ...PASSWORD_ENV,
      TRANSCRIPTION_ENABLED: 'true',
      TRANSCRIPTION_WEBHOOK_SECRET: `whsec_${Buffer.from('sixteen-byte-secret!').toString('base64')}`,
    });
    cookie = await login(viewer.url, MASTER.username, MASTER.password);
  });
  afterAll(() => viewer.close());
  // The master's cookie, and the internal push secret (the backup's bearer token) for /internal/push.
  sweep('archive', () => ({
    url: viewer.url,
    headers: {
      cookie: `viewer_auth=${cookie}`,
      ...(viewer.wiring.live.pushSecret && { authorization: `Bearer ${viewer.wiring.live.pushSecret}` }),
    },
  }));
});

describe('fuel', () => {
  let fuel: TestFuel;
  beforeAll(async () => {
    fuel = await startTestFuel();
  });
  afterAll(() => fuel.close());
  sweep('fuel', () => ({ url: fuel.url, headers: {} }));
});

describe('subtitles', () => {
  let server: Server & { adminKey: string };
  beforeAll(async () => {
    server = await startSeededServer();
  });
  afterAll(() => server.close());
  sweep('subtitles', () => ({ url: server.url, headers: authHeader(server.adminKey) }));
});
