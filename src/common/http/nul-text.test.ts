import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { Request, RequestHandler, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { writeContext } from './context';
import { MATCHED_OPERATION } from './matched-operation';
import { nulTextAt, refuseNulText } from './nul-text';

describe('nulTextAt', () => {
  it('finds U+0000 at the start, middle or end of a string, alone or repeated', () => {
    for (const text of ['\u0000', '\u0000a', 'a\u0000', 'a\u0000b', '\u0000\u0000', 'é\u0000😀']) {
      expect(nulTextAt(text, '/query/q'), JSON.stringify(text)).toBe('/query/q');
    }
  });

  it('finds it in nested arrays and objects, and in a key, naming the first place', () => {
    expect(nulTextAt({ a: 'x', b: ['y', { c: 'z\u0000' }] }, '/body')).toBe('/body/b/1/c');
    expect(nulTextAt({ 'k\u0000': 'v' }, '/body')).toBe('/body/k\\u0000');
    expect(nulTextAt(['ok', ['\u0000'], '\u0000'], '/body')).toBe('/body/1/0');
    expect(nulTextAt({ q: ['a', 'b\u0000'] }, '/query')).toBe('/query/q/1');
  });

  it('passes every other text and value', () => {
    const fine = [
      '',
      'plain',
      '\u0001\u001f\u007f',
      '\\u0000',
      '\\0',
      '%00',
      '\u2400',
      '\ud800',
      0,
      null,
      true,
      { a: [1, 'b', { c: null }] },
      Buffer.from([0, 0, 0]),
    ];
    for (const value of fine) expect(nulTextAt(value, '/body'), JSON.stringify(value)).toBeUndefined();
  });
});

describe('refuseNulText', () => {
  const withResponses = (responses: Record<string, unknown>, rawParams: Record<string, string>) => {
    const req = new IncomingMessage(new Socket());
    req.headers['content-type'] = 'application/json';
    writeContext(req, MATCHED_OPERATION, {
      operationId: 'op',
      method: 'get',
      template: '/things/{id}',
      operation: { responses },
      rawParams,
      path: `/things/${rawParams.id}`,
    });
    return req;
  };
  const run = (req: IncomingMessage, query: unknown, body: unknown) => {
    Object.assign(req, { query, body, is: (type: string) => (type === 'json' ? 'json' : false) });
    const seen: { error?: unknown; notFound?: boolean } = {};
    const notFound: RequestHandler = () => {
      seen.notFound = true;
    };
    refuseNulText(notFound)(req as Request, {} as Response, (error?: unknown) => {
      seen.error = error;
    });
    return seen;
  };
  const refused = (path: string) => ({
    error: { status: 400, errors: [{ path, message: 'must not contain the character U+0000' }] },
  });

  it('answers 400 naming the first place, path first, then the query, then the body', () => {
    const ok = { '200': {}, '400': {} };
    expect(run(withResponses(ok, { id: 'a%00' }), { q: '\u0000' }, {})).toEqual(refused('/path/id'));
    expect(run(withResponses(ok, { id: 'a' }), { q: ['x', '\u0000'] }, { t: '\u0000' })).toEqual(
      refused('/query/q/1'),
    );
    expect(run(withResponses(ok, { id: 'a' }), { q: 'x' }, { t: ['', { u: 'v\u0000' }] })).toEqual(
      refused('/body/t/1/u'),
    );
    expect(run(withResponses(ok, { id: 'a%2500' }), { q: '%00' }, { t: '\u0001' })).toEqual({
      error: undefined,
    });
  });

  it('gives an operation that documents no 400 its 404, and passes the rest', () => {
    expect(run(withResponses({ '200': {}, '404': {} }, { id: '%00' }), {}, {})).toEqual({ notFound: true });
    expect(run(withResponses({ '200': {}, '404': {} }, { id: 'x' }), {}, {})).toEqual({ error: undefined });
  });
});
