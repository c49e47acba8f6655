/**
 * A price replace as a difference: the new prices of a source and country are matched to its previous price
 * rows by key (station, fuel and currency), so a price that is already stored is left alone, one that moved
 * is updated in place, and only what is new is inserted and what is gone deleted. The previous prices have
 * to be read for that anyway, so the price history (a row per price that changed) costs no extra read.
 * Both backends use the same matching.
 */

import { FUEL_CODES } from '../model/fuels';
import type { PriceInput, PriceList } from './store';

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

/** A fuel column's slot written in SQL, for a backend that writes the previous prices' keys itself. */
export const fuelSlotSql = (column: string) =>
  `CASE ${column} ${FUEL_CODES.map((code, i) => `WHEN '${code}' THEN ${i}`).join(' ')} ELSE ${FUEL_SLOTS - 1} END`;

export const priceKey = (station: number, fuel: number, currency: number) =>
  (station * FUEL_SLOTS + fuel) * CURRENCY_SLOTS + currency;

/** The prices of a list in order, or those at `places`. */
export function* pricesOf(list: PriceList, places?: ArrayLike<number>): Generator<PriceInput> {
  const count = places ? places.length : list.length;
  for (let n = 0; n < count; n++) yield list.at(places ? (places[n] as number) : n) as PriceInput;
}

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
 * Keys of one station lie in [station × STATION_KEYS, (station + 1) × STATION_KEYS): a key is the station's
 * number times this plus `fuel slot × CURRENCY_SLOTS + currency slot`.
 */
export const STATION_KEYS = FUEL_SLOTS * CURRENCY_SLOTS;

/**
 * Matches new prices to previous rows with the same key. Keys are whole numbers (NO_KEY never matches) made
 * by priceKey from station numbers that lie close together (row numbers, or numbers given in turn);
 * `previousOrder` says in which order the previous rows were stored (row ids, any order of the arrays).
 * When a key repeats, the n-th new price takes the n-th previous row stored, so prices that share a key keep
 * their order of storage. Each station's previous rows are chained in typed arrays (a station has a few):
 * a map of 4,000,000 keys held hundreds of megabytes.
 */
export function matchPrices(
  previousKeys: ArrayLike<number>,
  previousOrder: ArrayLike<number>,
  newKeys: ArrayLike<number>,
): PriceMatch {
  const count = previousKeys.length;
  const stationOf = (key: number) => Math.floor(key / STATION_KEYS);
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < count; i++) {
    const key = previousKeys[i] as number;
    if (key === NO_KEY) continue;
    const station = stationOf(key);
    if (station < low) low = station;
    if (station > high) high = station;
  }
  // Per station, its first previous row in order of storage; `later` chains the station's other rows.
  const first = new Int32Array(count > 0 && high >= low ? high - low + 1 : 0).fill(-1);
  const later = new Int32Array(count).fill(-1);
  /** Chains the rows from the last stored to the first: `stored[n]` is the n-th row stored (or n itself). */
  const chain = (stored: ArrayLike<number> | null) => {
    first.fill(-1);
    for (let n = count - 1; n >= 0; n--) {
      const i = stored ? (stored[n] as number) : n;
      const key = previousKeys[i] as number;
      if (key === NO_KEY) continue;
      const at = stationOf(key) - low;
      later[i] = first[at] as number;
      first[at] = i;
    }
  };
  chain(null);
  // Rows of one key given out of their order of storage (the backend read them in another order): chain
  // them again in that order. Each row is compared with the next one of its key only: the order of a
  // station's other rows does not matter.
  let inOrder = true;
  for (let i = 0; i < count && inOrder; i++) {
    let next = later[i] as number;
    while (next >= 0 && previousKeys[next] !== previousKeys[i]) next = later[next] as number;
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
    const at = stationOf(key) - low;
    if (at < 0 || at >= first.length) continue;
    // The station's first row of this key not taken yet; a row taken leaves the chain.
    for (let i = first[at] as number, before = -1; i >= 0; before = i, i = later[i] as number) {
      if (previousKeys[i] !== key) continue;
      previousOf[j] = i;
      taken[i] = 1;
      if (before < 0) first[at] = later[i] as number;
      else later[before] = later[i] as number;
      break;
    }
  }
  const leftover: number[] = [];
  for (let i = 0; i < count; i++) if (!taken[i]) leftover.push(i);
  return { previousOf, leftover };
}
