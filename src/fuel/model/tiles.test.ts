import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../common/seeded-random';
import { placeKey, placeKeyRange, UNIT_BITS } from './tiles';

describe('place keys', () => {
  it('put the units of a tile of every zoom in its range and no other', () => {
    const next = seededRandom(5);
    const units = () => Math.floor(next() * 2 ** UNIT_BITS);
    for (let i = 0; i < 20_000; i++) {
      const [ux, uy] = [units(), units()];
      const key = placeKey(ux, uy);
      const z = Math.floor(next() * (UNIT_BITS + 1));
      const shift = 2 ** (UNIT_BITS - z);
      const own = { z, x: Math.floor(ux / shift), y: Math.floor(uy / shift) };
      const [from, to] = placeKeyRange(own);
      expect(key >= from && key < to).toBe(true);
      // The neighbours on each side hold other keys.
      for (const [dx, dy] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ] as const) {
        const x = own.x + dx;
        const y = own.y + dy;
        if (x < 0 || y < 0 || x >= 2 ** z || y >= 2 ** z) continue;
        const [a, b] = placeKeyRange({ z, x, y });
        expect(key >= a && key < b).toBe(false);
      }
    }
  });

  it('span the whole world at zoom 0 and one key at the units’ own zoom', () => {
    expect(placeKeyRange({ z: 0, x: 0, y: 0 })).toEqual([0, 2 ** (2 * UNIT_BITS)]);
    expect(placeKey(2 ** UNIT_BITS - 1, 2 ** UNIT_BITS - 1)).toBe(2 ** (2 * UNIT_BITS) - 1);
    expect(placeKeyRange({ z: UNIT_BITS, x: 3, y: 1 })).toEqual([placeKey(3, 1), placeKey(3, 1) + 1]);
  });
});
