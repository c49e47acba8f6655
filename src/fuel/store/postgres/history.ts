/**
 * The PostgreSQL store's price history: the changes a replace records, read and pruned.
 */
import type { HistoryQuery, PriceChangeRow } from '../store';
import type { PostgresConnection } from './connection';

export async function priceHistory(c: PostgresConnection, query: HistoryQuery): Promise<PriceChangeRow[]> {
  const { rows } = await c.pool.query<{
    external_id: string;
    price: number;
    currency: string;
    source: string;
    changed_at: Date;
  }>(
    `SELECT h.external_id, h.price, h.currency, h.source, h.changed_at FROM price_history h
     WHERE h.country = $1 AND h.fuel = $2 AND ($4::text IS NULL OR h.external_id = $4)
       AND (h.changed_at >= $3 OR h.changed_at = (
         SELECT max(o.changed_at) FROM price_history o
         WHERE o.country = h.country AND o.external_id = h.external_id AND o.fuel = h.fuel
           AND o.changed_at < $3))
     ORDER BY h.external_id, h.changed_at, h.id`,
    [query.country, query.fuel, query.since, query.externalId ?? null],
  );
  return rows.map((row) => ({
    externalId: row.external_id,
    price: row.price,
    currency: row.currency,
    source: row.source,
    changedAt: row.changed_at,
  }));
}

export async function prunePriceHistory(
  c: PostgresConnection,
  country: string,
  before: Date | null,
): Promise<number> {
  if (before === null)
    return (await c.pool.query('DELETE FROM price_history WHERE country = $1', [country])).rowCount ?? 0;
  const result = await c.pool.query(
    `DELETE FROM price_history h
     WHERE h.country = $1 AND h.changed_at < $2 AND EXISTS (
       SELECT 1 FROM price_history n
       WHERE n.country = h.country AND n.external_id = h.external_id AND n.fuel = h.fuel
         AND n.changed_at < $2 AND (n.changed_at > h.changed_at OR (n.changed_at = h.changed_at AND n.id > h.id)))`,
    [country, before],
  );
  return result.rowCount ?? 0;
}
