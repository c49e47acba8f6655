import { describe, expect, it } from 'vitest';
import { matchPrices, NO_KEY } from './price-diff';

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

  it('handles nothing before and nothing after', () => {
    expect(matchPrices([], [], [1, 2]).leftover).toEqual([]);
    expect([...matchPrices([], [], [1, 2]).previousOf]).toEqual([-1, -1]);
    expect(matchPrices([1, 2], [1, 2], []).leftover).toEqual([0, 1]);
  });
});
