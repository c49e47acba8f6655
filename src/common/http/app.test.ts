import { createRequire } from 'node:module';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadBundledDocument } from '../documents';
import { createLogger, silentLogger } from '../logger';
import { listen, type RunningServer } from '../serve';
import { createServiceApp } from './app';
import { classifyError } from './errors';
import { documentedOperations, type OperationHandler } from './operations';

// biome-ignore lint/suspicious/noExplicitAny: walking the bundled document.
const doc = loadBundledDocument('fuel') as any;
const exampleOf = (path: string, method: string, status: string) =>
  doc.paths[path][method].responses[status].content['application/json'].example;

function stubHandlers(overrides: Record<string, OperationHandler<never>> = {}) {
  const handlers: Record<string, OperationHandler<never>> = {};
  for (const op of documentedOperations(doc)) {
    handlers[op.operationId] = ((_req, res) => {
      res.json(exampleOf(op.path, op.method, '200'));
    }) as OperationHandler<never>;
  }
  return { ...handlers, ...overrides };
}

const seen: unknown[] = [];
const errorMapper: ErrorRequestHandler = (error, _req, res, _next) => {
  const classified = classifyError(error);
  seen.push(classified);
  res.status(classified.kind === 'invalid-request' ? classified.status : 599).json(classified);
};
const notFound: RequestHandler = (_req, res) => {
  res.status(404).json({ error: 'no such route' });
};
const badTarget: RequestHandler = (_req, res) => {
  res.status(400).json({ error: 'unreadable target' });
};
const answers = { notFound, badTarget };

describe('createServiceApp', () => {
  let server: RunningServer;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const handlers = stubHandlers({
      listStations: ((req, res) => {
        res.json({ type: 'FeatureCollection', features: [], echo: req.query } as never);
      }) as OperationHandler<never>,
      getStats: ((_req, res) => {
        res.json({ totals: 'wrong' } as never);
      }) as OperationHandler<never>,
    });
    const app = createServiceApp({
      service: 'fuel',
      handlers,
      logger: createLogger('fuel', 'info', { write: (line: string) => lines.push(JSON.parse(line)) }),
      errorMapper,
      answers,
      validateResponses: true,
    });
    server = await listen(app, 0);
  });
  afterAll(() => server.close());

  it('passes a valid request to its handler with validated, coerced input', async () => {
    const res = await fetch(
      `${server.url}/api/stations/nearest?lat=40.4&lon=-3.7&radius_km=5&fuel=B7&limit=3`,
    );
    expect(res.status).toBe(200);
    const stations = await fetch(`${server.url}/api/stations?bbox=-3.8,40.3,-3.6,40.5&fuel=E5`);
    expect(((await stations.json()) as { echo: unknown }).echo).toEqual({
      bbox: '-3.8,40.3,-3.6,40.5',
      fuel: 'E5',
    });
  });

  it('matches requests to documented routes without compiling route patterns again', async () => {
    // The request validator's route lookup compiled every documented route's pattern on every request;
    // patches/express-openapi-validator+*.patch (applied by npm ci) compiles each once.
    const patterns = createRequire(import.meta.url)('path-to-regexp') as { pathToRegexp: () => unknown };
    await fetch(`${server.url}/api/config`);
    const compile = vi.spyOn(patterns, 'pathToRegexp');
    try {
      for (const route of ['/api/config', '/api/stations/nearest?lat=40&lng=-3&radius=5']) {
        expect((await fetch(`${server.url}${route}`)).status, route).toBeLessThan(500);
      }
      expect(compile).not.toHaveBeenCalled();
    } finally {
      compile.mockRestore();
    }
  });

  it('logs one JSON line per request with its id, never the query', async () => {
    lines.length = 0;
    await fetch(`${server.url}/api/stations/nearest?lat=40.4&lon=-3.7&radius_km=5&fuel=B7&limit=3`);
    await fetch(`${server.url}/api/config`);
    const requests = lines.filter((line) => line.msg === 'request');
    expect(requests).toMatchObject([
      { service: 'fuel', method: 'GET', path: '/api/stations/nearest', status: 200, ms: expect.any(Number) },
      { service: 'fuel', method: 'GET', path: '/api/config', status: 200 },
    ]);
    expect(new Set(requests.map((line) => line.req)).size).toBe(2);
    expect(JSON.stringify(lines)).not.toContain('lat=');
  });

  it('classifies a parameter outside the document as an invalid request with details', async () => {
    const res = await fetch(`${server.url}/api/stations?bbox=-3.8,40.3,-3.6,40.5&fuel=DIESEL`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { kind: string; details: { path: string }[] };
    expect(body.kind).toBe('invalid-request');
    expect(body.details[0]?.path).toContain('fuel');
  });

  it('classifies a body that is not JSON', async () => {
    const res = await fetch(`${server.url}/api/route`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{oops',
    });
    expect(await res.json()).toEqual({ kind: 'invalid-json' });
  });

  it('classifies a response that breaks the document', async () => {
    const res = await fetch(`${server.url}/api/stats`);
    expect(((await res.json()) as { kind: string }).kind).toBe('invalid-response');
  });

  it('sends unknown paths to the not-found answer', async () => {
    const res = await fetch(`${server.url}/api/nothing-here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'no such route' });
  });

  it('refuses to start when a handler is missing or undocumented', () => {
    const { listStations: _dropped, ...partial } = stubHandlers();
    const build = (handlers: Record<string, OperationHandler<never>>) => () =>
      createServiceApp({
        service: 'fuel',
        handlers,
        logger: silentLogger(),
        errorMapper,
        answers,
        validateResponses: false,
      });
    expect(build(partial)).toThrow(/missing listStations/);
    expect(build({ ...stubHandlers(), listPlanets: (() => {}) as OperationHandler<never> })).toThrow(
      /undocumented listPlanets/,
    );
  });
});
