import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../common/seeded-random';
import { placeInTile, placeKey, placeKeyOf, placeKeyRange, placeUnits, UNIT_BITS } from './tiles';

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

  it('give back their units, and a position’s key lies in the range of the street tile holding it', () => {
    const next = seededRandom(9);
    for (let i = 0; i < 20_000; i++) {
      const [ux, uy] = [Math.floor(next() * 2 ** UNIT_BITS), Math.floor(next() * 2 ** UNIT_BITS)];
      expect(placeUnits(placeKey(ux, uy))).toEqual([ux, uy]);
    }
    expect(placeUnits(2 ** (2 * UNIT_BITS) - 1)).toEqual([2 ** UNIT_BITS - 1, 2 ** UNIT_BITS - 1]);
    // Positions anywhere, the poles and the antimeridian included, at street zooms 14-22.
    const edges = [-180, 180, -90, 90, 85.0511287798066, -85.0511287798066, 0];
    for (let i = 0; i < 20_000; i++) {
      const lon = i < 49 ? (edges[i % 7] as number) : next() * 360 - 180;
      const lat = i < 49 ? (edges[Math.floor(i / 7)] as number) / 2 : next() * 180 - 90;
      const key = placeKeyOf(lon, lat);
      const z = 14 + (i % 9);
      const size = 2 ** z;
      let found = 0;
      const [ux, uy] = placeUnits(key);
      const shift = 2 ** (UNIT_BITS - z);
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [-1, 0],
        [0, -1],
      ] as const) {
        const tile = { z, x: Math.floor(ux / shift) + dx, y: Math.floor(uy / shift) + dy };
        if (tile.x < 0 || tile.y < 0 || tile.x >= size || tile.y >= size) continue;
        const [from, to] = placeKeyRange(tile);
        expect(placeInTile(tile, lon, lat) !== null).toBe(key >= from && key < to);
        if (key >= from && key < to) found++;
      }
      expect(found).toBe(1);
    }
  });
});
