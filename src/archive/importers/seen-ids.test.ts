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

  it('keeps an unbroken run as one, and knows every id inside it', () => {
    const seen = new SeenIds();
    for (let id = 1; id <= 100_000; id++) expect(seen.add(id)).toBe(true);
    for (const id of [1, 2, 50_000, 99_999, 100_000]) expect(seen.add(id)).toBe(false);
    expect(seen.add(100_002)).toBe(true);
    expect(seen.add(100_001)).toBe(true);
    expect(seen.add(100_001)).toBe(false);
    expect(seen.add(0)).toBe(true);
    expect(seen.add(0)).toBe(false);
  });
});
