/**
 * A price replace as a difference: the new prices of a source and country are matched to its previous price
 * rows by key (station, fuel and currency), so a price that is already stored is left alone, one that moved
 * is updated in place, and only what is new is inserted and what is gone deleted. The previous prices have
 * to be read for that anyway, so the price history (a row per price that changed) costs no extra read.
 * Both backends use the same matching.
 */

import { FUEL_CODES } from '../fuels';

/** A key that never matches: the price is inserted, or the previous row deleted. */
export const NO_KEY = -1;

/**
 * A price's key is one number: its station's number, its fuel's place in the document's list (any other
 * code gets the last place) and its currency's place among the first seven of the replace (any other the
 * last place). A new price with a code in a last place gets NO_KEY: it is inserted, and counts as changed.
 */
export const FUEL_SLOTS = 64;
export const CURRENCY_SLOTS = 8;
export const fuelSlot = new Map(FUEL_CODES.map((code, i) => [code as string, i]));
if (FUEL_CODES.length >= FUEL_SLOTS || FUEL_CODES.some((code) => !/^[A-Z0-9_]+$/.test(code)))
  throw new Error('The fuel list no longer fits the price key');

export const priceKey = (station: number, fuel: number, currency: number) =>
  (station * FUEL_SLOTS + fuel) * CURRENCY_SLOTS + currency;

/** The first seven currencies of the new prices, by their place. */
export function currencySlots(prices: Iterable<{ currency: string }>): Map<string, number> {
  const slots = new Map<string, number>();
  for (const price of prices) {
    if (slots.size === CURRENCY_SLOTS - 1) break;
    if (!slots.has(price.currency)) slots.set(price.currency, slots.size);
  }
  return slots;
}

/** The key of a new price of station number `station` (undefined: no key). */
export function newPriceKey(
  station: number | undefined,
  price: { fuel: string; currency: string },
  currencies: Map<string, number>,
): number {
  const fuel = fuelSlot.get(price.fuel);
  const currency = currencies.get(price.currency);
  return station === undefined || fuel === undefined || currency === undefined
    ? NO_KEY
    : priceKey(station, fuel, currency);
}

export interface PriceMatch {
  /** Per new price, the index of the previous row it takes over, or -1 when it is inserted. */
  previousOf: Int32Array;
  /** The previous rows no new price took over, to delete. */
  leftover: number[];
}

/**
 * Matches new prices to previous rows with the same key. Keys are whole numbers (NO_KEY never matches);
 * `previousOrder` says in which order the previous rows were stored (row ids, any order of the arrays).
 * When a key repeats, the n-th new price takes the n-th previous row stored, so prices that share a key keep
 * their order of storage.
 */
export function matchPrices(
  previousKeys: ArrayLike<number>,
  previousOrder: ArrayLike<number>,
  newKeys: ArrayLike<number>,
): PriceMatch {
  const count = previousKeys.length;
  // Per key, the first previous row not taken yet; `later` chains the rows that share a key.
  const first = new Map<number, number>();
  const later = new Int32Array(count).fill(-1);
  /** Chains the rows from the last stored to the first: `stored[n]` is the n-th row stored (or n itself). */
  const chain = (stored: ArrayLike<number> | null) => {
    first.clear();
    for (let n = count - 1; n >= 0; n--) {
      const i = stored ? (stored[n] as number) : n;
      const key = previousKeys[i] as number;
      if (key === NO_KEY) continue;
      later[i] = first.get(key) ?? -1;
      first.set(key, i);
    }
  };
  chain(null);
  // Rows of one key given out of their order of storage (the backend read them in another order): chain
  // them again in that order. Only a repeated key is compared.
  let inOrder = true;
  for (let i = 0; i < count && inOrder; i++) {
    const next = later[i] as number;
    if (next >= 0 && (previousOrder[i] as number) > (previousOrder[next] as number)) inOrder = false;
  }
  if (!inOrder) {
    const stored = Array.from({ length: count }, (_, i) => i).sort(
      (a, b) => (previousOrder[a] as number) - (previousOrder[b] as number),
    );
    chain(stored);
  }
  const taken = new Uint8Array(count);
  const previousOf = new Int32Array(newKeys.length).fill(-1);
  for (let j = 0; j < newKeys.length; j++) {
    const key = newKeys[j] as number;
    if (key === NO_KEY) continue;
    const i = first.get(key);
    if (i === undefined) continue;
    previousOf[j] = i;
    taken[i] = 1;
    const next = later[i] as number;
    if (next < 0) first.delete(key);
    else first.set(key, next);
  }
  const leftover: number[] = [];
  for (let i = 0; i < count; i++) if (!taken[i]) leftover.push(i);
  return { previousOf, leftover };
}
