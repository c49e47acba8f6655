/**
 * The SQLite store's price history: the changes a replace records, read and pruned.
 */
import type { HistoryQuery, PriceChangeRow, PriceInput, PriceList } from '../store';
import type { SqliteConnection } from './connection';

/**
 * The places k of `changes` (each a price's place in `prices`) in the order of the history's station index
 * (external id, then fuel): the rows of a run then fill its pages one after the other. Written in the
 * stations' order, they landed all over it: 40,000 rows and their commit took 420 ms, in this order 300
 * (scripts/bench/README.md, fuel decisions).
 */
export function inHistoryOrder(prices: PriceList, changes: Uint32Array): Uint32Array {
  const places = Uint32Array.from({ length: changes.length }, (_, k) => k);
  const ids = new Array<string>(changes.length);
  const fuels = new Array<string>(changes.length);
  for (const [k, place] of changes.entries()) {
    const price = prices.at(place) as PriceInput;
    ids[k] = price.externalId;
    fuels[k] = price.fuel;
  }
  const idOf = (k: number) => ids[k] as string;
  const fuelOf = (k: number) => fuels[k] as string;
  return places.sort((a, b) => {
    const [ia, ib] = [idOf(a), idOf(b)];
    if (ia !== ib) return ia < ib ? -1 : 1;
    const [fa, fb] = [fuelOf(a), fuelOf(b)];
    return fa === fb ? 0 : fa < fb ? -1 : 1;
  });
}

export async function priceHistory(c: SqliteConnection, query: HistoryQuery): Promise<PriceChangeRow[]> {
  const one = query.externalId !== undefined;
  const rows = c
    .prepare(
      `SELECT h.external_id, h.price, h.currency, h.source, h.changed_at FROM price_history h
     WHERE h.country = @country AND h.fuel = @fuel ${one ? 'AND h.external_id = @externalId' : ''}
       AND (h.changed_at >= @since OR h.changed_at = (
         SELECT max(o.changed_at) FROM price_history o
         WHERE o.country = h.country AND o.external_id = h.external_id AND o.fuel = h.fuel
           AND o.changed_at < @since))
     ORDER BY h.external_id, h.changed_at, h.rowid`,
    )
    .raw()
    .all({
      country: query.country,
      fuel: query.fuel,
      since: query.since.getTime(),
      ...(one ? { externalId: query.externalId } : {}),
    }) as [string, number, string, string, number][];
  return rows.map(([externalId, price, currency, source, at]) => ({
    externalId,
    price,
    currency,
    source,
    changedAt: new Date(at),
  }));
}

export async function prunePriceHistory(
  c: SqliteConnection,
  country: string,
  before: Date | null,
): Promise<number> {
  if (before === null) return c.prepare('DELETE FROM price_history WHERE country = ?').run(country).changes;
  const prune = c.db.transaction(
    () =>
      c
        .prepare(
          `DELETE FROM price_history WHERE rowid IN (
           SELECT h.rowid FROM price_history h
           WHERE h.country = @country AND h.changed_at < @before AND EXISTS (
             SELECT 1 FROM price_history n
             WHERE n.country = h.country AND n.external_id = h.external_id AND n.fuel = h.fuel
               AND n.changed_at < @before
               AND (n.changed_at > h.changed_at OR (n.changed_at = h.changed_at AND n.rowid > h.rowid))))`,
        )
        .run({ country, before: before.getTime() }).changes,
  );
  return prune.immediate();
}
