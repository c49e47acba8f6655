import { describe, expect, it } from 'vitest';
import { SeenIds } from './seen-ids';

describe('SeenIds', () => {
  it('reports repeats in order, out of order and negative, across growth of the array', () => {
    const seen = new SeenIds();
    const ids = [-999678450, -999678449, 1, 2, 5, ...Array.from({ length: 3000 }, (_, i) => 10 + i * 3)];
    for (const id of ids) expect(seen.add(id)).toBe(true);
    for (const id of ids) expect(seen.add(id)).toBe(false);
    expect(seen.add(3)).toBe(true);
    expect(seen.add(3)).toBe(false);
    expect(seen.add(11)).toBe(true);
    expect(seen.add(10 + 2999 * 3 + 1)).toBe(true);
    expect(seen.add(4)).toBe(true);
    expect(seen.add(4)).toBe(false);
  });
});
