import { describe, expect, it } from 'vitest';
import { loadDocument, SchemaValidator } from './document';
import { buildRequest, checkResponse } from './exchange';
import { operationById } from './suite';

const doc = loadDocument('fuel');
const validator = new SchemaValidator('fuel', doc);
const config = operationById(doc, 'getConfig');
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const CONFIG_CACHE = { 'cache-control': 'public, s-maxage=3600, stale-while-revalidate=7200' };
const example = doc.paths['/api/config'].get.responses['200'].content['application/json'].example;

describe('checkResponse', () => {
  it('accepts the documented example', async () => {
    expect((await checkResponse(doc, validator, config, json(example, 200, CONFIG_CACHE))).problems).toEqual(
      [],
    );
  });

  it('reports a body that breaks the schema', async () => {
    const { problems } = await checkResponse(
      doc,
      validator,
      config,
      json({ ...example, zoom: 'near' }, 200, CONFIG_CACHE),
    );
    expect(problems.join()).toMatch(/zoom/);
  });

  it('reports an undocumented status, a wrong media type and a wrong fixed header', async () => {
    expect((await checkResponse(doc, validator, config, json(example, 418))).problems.join()).toMatch(
      /418 is not documented/,
    );
    const text = new Response('ok', {
      status: 200,
      headers: { 'content-type': 'text/plain', ...CONFIG_CACHE },
    });
    expect((await checkResponse(doc, validator, config, text)).problems.join()).toMatch(
      /content-type text\/plain/,
    );
    const wrongCache = json(example, 200, { 'cache-control': 'no-store' });
    expect((await checkResponse(doc, validator, config, wrongCache)).problems.join()).toMatch(
      /Cache-Control/i,
    );
  });

  it('checks each NDJSON line against the line schema', async () => {
    const detour = operationById(doc, 'streamRouteDetours');
    const body = '{"id":"a","detourMin":1.5}\n{"id":"b"}\n';
    const res = new Response(body, {
      headers: {
        'content-type': 'application/x-ndjson',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      },
    });
    expect((await checkResponse(doc, validator, detour, res)).problems).toEqual([
      expect.stringMatching(/^line 2: .*detourMin/),
    ]);
  });
});

describe('buildRequest', () => {
  it('fills path and required query parameters from their examples and adds the body example', () => {
    const stations = buildRequest(doc, operationById(doc, 'listStations'), 'http://x');
    expect(new URL(stations.url).searchParams.get('fuel')).toBeTruthy();
    expect(new URL(stations.url).searchParams.get('bbox')).toMatch(/^-?\d/);
    const route = buildRequest(doc, operationById(doc, 'planRoute'), 'http://x');
    expect(JSON.parse(String(route.init.body))).toHaveProperty('origin');
    expect(route.init.headers['content-type']).toBe('application/json');
  });
});
