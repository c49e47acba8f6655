import type { Station } from './api';

/** Each station's price from 0 (cheapest in view) to 1 (dearest in view). */
export function relativePrices(stations: Station[]): Map<string, number> {
  const prices = stations.map((s) => s.properties.price).filter((p): p is number => p !== undefined);
  const min = Math.min(...prices);
  const max = Math.max(...prices);
  const out = new Map<string, number>();
  for (const s of stations) {
    const price = s.properties.price;
    if (price !== undefined) out.set(s.properties.id, max > min ? (price - min) / (max - min) : 0);
  }
  return out;
}
