/** A station's price changes and a country's daily price figures, from the price history. */
import type { components } from '../../../generated/fuel/types';
import { NotFound } from '../model/errors';
import type { FuelCode } from '../model/fuels';
import { EV_FUEL, type FuelStore, type PriceChangeRow } from '../store/store';

export type PriceHistory = components['schemas']['PriceHistory'];
export type DailyPriceStats = components['schemas']['DailyPriceStats'];

export const DEFAULT_HISTORY_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface HistoryDeps {
  store: FuelStore;
  now?: () => number;
}

const since = (now: number, days: number) => new Date(now - days * DAY_MS);

export async function stationPriceHistory(
  { store, now = Date.now }: HistoryDeps,
  query: { country: string; externalId: string; fuel: FuelCode; days?: number },
): Promise<PriceHistory> {
  const days = query.days ?? DEFAULT_HISTORY_DAYS;
  if (!(await store.hasStation(query.country, query.externalId))) throw new NotFound('Station not found');
  const rows =
    query.fuel === EV_FUEL
      ? []
      : await store.priceHistory({
          country: query.country,
          fuel: query.fuel,
          externalId: query.externalId,
          since: since(now(), days),
        });
  return {
    country: query.country,
    externalId: query.externalId,
    fuelType: query.fuel,
    days,
    changes: rows.map(({ price, currency, source, changedAt }) => ({
      price,
      currency,
      changedAt: changedAt.toISOString(),
      source,
    })),
  };
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Per UTC day of the window, the prices in force at the end of the day: each station's last change at or
 * before then. Rows come by station, then time, so one pass per station fills the days it was priced.
 */
export function dailyFigures(rows: PriceChangeRow[], fromMs: number, toMs: number) {
  const firstDay = Date.UTC(
    new Date(fromMs).getUTCFullYear(),
    new Date(fromMs).getUTCMonth(),
    new Date(fromMs).getUTCDate(),
  );
  const dayCount = Math.floor((toMs - firstDay) / DAY_MS) + 1;
  const min = new Float64Array(dayCount).fill(Infinity);
  const max = new Float64Array(dayCount).fill(-Infinity);
  const sum = new Float64Array(dayCount);
  const count = new Uint32Array(dayCount);
  const currencies = new Map<string, number>();
  let i = 0;
  while (i < rows.length) {
    const station = (rows[i] as PriceChangeRow).externalId;
    let j = i;
    while (j < rows.length && (rows[j] as PriceChangeRow).externalId === station) j++;
    // Day d ends at firstDay + (d + 1) days (or now, for today): the price then is the last change before.
    let k = i;
    for (let d = 0; d < dayCount; d++) {
      const end = Math.min(firstDay + (d + 1) * DAY_MS, toMs + 1);
      while (k + 1 < j && (rows[k + 1] as PriceChangeRow).changedAt.getTime() < end) k++;
      const row = rows[k] as PriceChangeRow;
      if (row.changedAt.getTime() >= end) continue;
      min[d] = Math.min(min[d] as number, row.price);
      max[d] = Math.max(max[d] as number, row.price);
      sum[d] = (sum[d] as number) + row.price;
      count[d] = (count[d] as number) + 1;
      if (d === dayCount - 1) currencies.set(row.currency, (currencies.get(row.currency) ?? 0) + 1);
    }
    i = j;
  }
  const days: DailyPriceStats['days'] = [];
  for (let d = 0; d < dayCount; d++) {
    const n = count[d] as number;
    if (n === 0) continue;
    days.push({
      date: utcDay(firstDay + d * DAY_MS),
      min: min[d] as number,
      avg: Math.round(((sum[d] as number) / n) * 10_000) / 10_000,
      max: max[d] as number,
      stations: n,
    });
  }
  const currency = [...currencies].sort((a, b) => b[1] - a[1])[0]?.[0] ?? rows.at(-1)?.currency ?? null;
  return { days, currency };
}

export async function dailyPriceStats(
  { store, now = Date.now }: HistoryDeps,
  query: { country: string; fuel: FuelCode; days?: number },
): Promise<DailyPriceStats> {
  const days = query.days ?? DEFAULT_HISTORY_DAYS;
  const to = now();
  const from = since(to, days).getTime();
  const rows =
    query.fuel === EV_FUEL
      ? []
      : await store.priceHistory({ country: query.country, fuel: query.fuel, since: new Date(from) });
  const figures = dailyFigures(rows, from, to);
  return { country: query.country, fuelType: query.fuel, currency: figures.currency, days: figures.days };
}
