/** The SQL builder: bound values, and the counts it writes into the text. */
import { describe, expect, it } from 'vitest';
import { JsonText } from '../model/int64';
import { compile, count, json, sql } from './sql';

describe('count', () => {
  it('writes a non-negative integer into the text, binding nothing', () => {
    const query = sql`SELECT pk FROM messages WHERE text = ${'x'} LIMIT ${count(21)} OFFSET ${count(0)}`;
    expect(compile(query, 'sqlite')).toEqual({
      text: 'SELECT pk FROM messages WHERE text = ? LIMIT 21 OFFSET 0',
      params: ['x'],
    });
    expect(compile(query, 'postgresql').text).toBe(
      'SELECT pk FROM messages WHERE text = $1 LIMIT 21 OFFSET 0',
    );
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])('refuses %s', (n) => {
    expect(() => count(n)).toThrow(RangeError);
  });
});

describe('json', () => {
  it('binds an object as its JSON text, and JSON text written elsewhere as it is', () => {
    const written = new JsonText('{"export_type":"message","n":1}');
    const query = sql`INSERT INTO t (a, b, c) VALUES (${json({ n: 1 })}, ${json(written)}, ${json(null)})`;
    expect(compile(query, 'sqlite').params).toEqual(['{"n":1}', '{"export_type":"message","n":1}', null]);
    expect(compile(query, 'postgresql').params).toEqual(['{"n":1}', '{"export_type":"message","n":1}', null]);
  });
});
