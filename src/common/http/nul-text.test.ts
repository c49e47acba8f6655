import { describe, expect, it } from 'vitest';
import { nulTextAt } from './nul-text';

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
