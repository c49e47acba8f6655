import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../common/seeded-random';
import { hash32 } from '../store/sample-key';
import { IdTable } from './id-table';

/** Two different ids with the same hash, found by trying ids in turn. */
function collidingIds(idOf: (i: number) => string = (i) => `DE*${i}`): [string, string] {
  const seen = new Map<number, string>();
  for (let i = 0; ; i++) {
    const id = idOf(i);
    const other = seen.get(hash32(id));
    if (other !== undefined) return [other, id];
    seen.set(hash32(id), id);
  }
}

describe('IdTable', () => {
  it('answers as a Map does over ids of every spelling, through growth', () => {
    const next = seededRandom(7);
    const pieces = [
      'ES-',
      '12',
      'ß',
      'İ',
      '\u0000',
      '😀',
      'e\u0301',
      '',
      ' ',
      'a'.repeat(70),
      '\ud800',
      '\ufffd',
      '\udc00',
    ];
    const table = new IdTable();
    const map = new Map<string, number>();
    for (let i = 0; i < 50_000; i++) {
      let id = '';
      for (let n = Math.floor(next() * 4); n >= 0; n--) id += pieces[Math.floor(next() * pieces.length)];
      if (next() < 0.5) id += Math.floor(next() * 5_000);
      const value = Math.floor(next() * 2 ** 31);
      if (next() < 0.8) {
        table.set(id, value);
        map.set(id, value);
      } else {
        expect(table.get(id)).toBe(map.get(id));
        expect(table.has(id)).toBe(map.has(id));
      }
    }
    expect(table.size).toBe(map.size);
    expect([...table.values()]).toEqual([...map.values()]);
    for (const [id, value] of map) expect(table.get(id)).toBe(value);
  });

  it('keeps ids whose hashes meet apart', () => {
    const [a, b] = collidingIds();
    expect(a).not.toBe(b);
    const table = new IdTable();
    table.set(a, 1);
    expect(table.get(b)).toBeUndefined();
    table.set(b, 2);
    expect([table.get(a), table.get(b), table.size]).toEqual([1, 2, 2]);
  });

  it('keeps ids apart that UTF-8 would write alike, with the same hash', () => {
    // UTF-8 writes each lone surrogate as U+FFFD: these two ids are the same bytes that way.
    const lowSurrogates = (i: number) => {
      const n = Math.imul(i, 2654435761) >>> 2;
      return String.fromCharCode(
        0xdc00 + ((n >> 20) & 1023),
        0xdc00 + ((n >> 10) & 1023),
        0xdc00 + (n & 1023),
      );
    };
    const [a, b] = collidingIds(lowSurrogates);
    expect(Buffer.from(a)).toEqual(Buffer.from(b));
    const ids = [a, b, '\ufffd', '\ud800', '\udc00', 'x\ud800', 'x\ufffd', '\ud800\udc00', '\ud800\ufffd'];
    const table = new IdTable();
    for (const [i, id] of ids.entries()) table.set(id, i);
    expect(ids.map((id) => table.get(id))).toEqual(ids.map((_, i) => i));
    expect(table.size).toBe(ids.length);
  });

  it('sets bits of the keys it holds only', () => {
    const table = new IdTable();
    table.set('a', 4);
    expect(table.addBits('a', 2)).toBe(true);
    expect(table.addBits('b', 2)).toBe(false);
    expect([table.get('a'), table.get('b'), table.size]).toEqual([6, undefined, 1]);
    table.clear();
    expect([table.get('a'), table.size]).toEqual([undefined, 0]);
  });
});
