import { describe, expect, it } from 'vitest';
import { matchPrices, NO_KEY, priceKey } from './price-diff';

describe('matchPrices', () => {
  it('pairs each new price with the previous row of its key; the rest is inserted or left over', () => {
    const { previousOf, leftover } = matchPrices([10, 20, 30], [1, 2, 3], [30, 40, 10]);
    expect([...previousOf]).toEqual([2, -1, 0]);
    expect(leftover).toEqual([1]);
  });

  it('never pairs NO_KEY, on either side', () => {
    const { previousOf, leftover } = matchPrices([NO_KEY, 5], [1, 2], [NO_KEY, 5, 5]);
    expect([...previousOf]).toEqual([-1, 1, -1]);
    expect(leftover).toEqual([0]);
  });

  it('gives a repeated key its previous rows in their order of storage, however they were read', () => {
    // Rows 0, 2 and 3 share key 7, stored as row ids 30, 10, 20: the first new price of key 7 takes row id
    // 10, the second row id 20; row id 30 is left over.
    const { previousOf, leftover } = matchPrices([7, 8, 7, 7], [30, 5, 10, 20], [7, 8, 7]);
    expect([...previousOf]).toEqual([2, 1, 3]);
    expect(leftover).toEqual([0]);
    // Already in order: the same pairs.
    const sorted = matchPrices([7, 7, 7, 8], [10, 20, 30, 5], [7, 8, 7]);
    expect([...sorted.previousOf]).toEqual([0, 3, 1]);
    expect(sorted.leftover).toEqual([2]);
  });

  it('leaves a station whose rows of different keys come out of order as it is', () => {
    // Keys 1 and 2 of one station read in reverse order of storage: no key repeats, so nothing to reorder.
    const { previousOf } = matchPrices([2, 1], [20, 10], [1, 2]);
    expect([...previousOf]).toEqual([1, 0]);
  });

  it('handles nothing before and nothing after', () => {
    expect(matchPrices([], [], [1, 2]).leftover).toEqual([]);
    expect([...matchPrices([], [], [1, 2]).previousOf]).toEqual([-1, -1]);
    expect(matchPrices([1, 2], [1, 2], []).leftover).toEqual([0, 1]);
  });

  it('matches across many stations read in any order, as a key-by-key search would', () => {
    // 3,000 previous rows over 500 stations (some keys repeated), shuffled; new prices likewise.
    let seed = 11;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const rows = Array.from({ length: 3000 }, (_, order) => ({
      key: priceKey(1000 + next(500), next(3), next(2)),
      order,
    }));
    const shuffled = [...rows].sort(() => next(3) - 1);
    const newKeys = Array.from({ length: 2500 }, () => priceKey(1000 + next(520), next(3), next(2)));
    const { previousOf, leftover } = matchPrices(
      shuffled.map((r) => r.key),
      shuffled.map((r) => r.order),
      newKeys,
    );
    // The same matching done plainly: per key, the previous rows in order of storage, taken in turn.
    const queues = new Map<number, number[]>();
    for (const r of rows) queues.set(r.key, [...(queues.get(r.key) ?? []), r.order]);
    const expected = newKeys.map((key) => queues.get(key)?.shift() ?? -1);
    expect([...previousOf].map((i) => (i < 0 ? -1 : (shuffled[i] as { order: number }).order))).toEqual(
      expected,
    );
    const left = [...queues.values()].flat().sort((a, b) => a - b);
    expect(leftover.map((i) => (shuffled[i] as { order: number }).order).sort((a, b) => a - b)).toEqual(left);
  });
});
