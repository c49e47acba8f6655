/**
 * The change feed's time parameters and paging rule. `since` and `before` take ISO 8601 with or without
 * an offset (none means UTC, as everywhere in the API) or a bare date (midnight UTC).
 */
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Parses the API's timestamp forms; null when malformed or not a real instant. */
export function parseApiTimestamp(value: string): Date | null {
  const m = TIMESTAMP.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const offset = zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const millis = frac ? `.${frac.padEnd(3, '0').slice(0, 3)}` : '';
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${millis}${offset}`);
  if (Number.isNaN(date.getTime())) return null;
  // Date accepts 2026-02-30 by rolling over; the API does not.
  const check = new Date(`${y}-${mo}-${d}T00:00:00Z`);
  if (check.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  return date;
}

/**
 * A page ends at `limit` entries, except that entries sharing the boundary's timestamp are held back to
 * the next page when the next entry shares it too: an exclusive `before` cursor then skips nothing.
 * `rows` is the query's answer for `limit + 1`. When every entry of the page shares that timestamp
 * there is nothing to hold back to: `splitInstant` names it, and the caller returns the whole instant.
 */
export function pageWithoutSplitTies<T>(rows: T[], limit: number, dateOf: (row: T) => string): T[] {
  if (rows.length <= limit) return rows;
  const page = rows.slice(0, limit);
  const boundary = dateOf(rows[limit] as T);
  if (dateOf(page[page.length - 1] as T) !== boundary) return page;
  const kept = page.filter((row) => dateOf(row) !== boundary);
  return kept.length > 0 ? kept : page;
}

/** The timestamp shared by a whole page and the entry after it, or null. */
export function splitInstant<T>(rows: T[], limit: number, dateOf: (row: T) => string): string | null {
  if (rows.length <= limit || limit < 1) return null;
  const boundary = dateOf(rows[limit] as T);
  return dateOf(rows[0] as T) === boundary ? boundary : null;
}
