/**
 * Local days in IANA time zones, for jump-to-date and the calendar. Messages are stored in UTC; a local
 * day is turned into the UTC instants where it starts and ends, so every query stays an index range.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isValidTimeZone(timeZone: string): boolean {
  if (!timeZone || timeZone.length > 64) return false;
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's local wall time at `instant`, as if it were UTC (milliseconds). */
function wallClock(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(instant))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/**
 * The first instant whose local date in the zone is `y-m-d` or later: local midnight, or the first
 * moment after it where a transition skips midnight.
 */
export function startOfLocalDay(year: number, month: number, day: number, timeZone: string): Date {
  const target = Date.UTC(year, month - 1, day);
  let guess = target - (wallClock(target, timeZone) - target);
  guess = target - (wallClock(guess, timeZone) - guess);
  // Walk to the exact boundary: local wall time must reach the target day, and just before it not.
  const step = 15 * 60 * 1000;
  for (let i = 0; i < 12 && wallClock(guess, timeZone) < target; i++) guess += step;
  for (let i = 0; i < 12 && wallClock(guess - step, timeZone) >= target; i++) guess -= step;
  return new Date(guess);
}

/** `YYYY-MM-DD` → the UTC range [start, end) of that local day. */
export function localDayRange(date: string, timeZone: string): { start: Date; end: Date } {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + 1));
  return {
    start: startOfLocalDay(y, m, d, timeZone),
    end: startOfLocalDay(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone),
  };
}

/** Every day of a `YYYY-MM` month with its UTC range in the zone. */
export function localMonthDays(month: string, timeZone: string): { date: string; start: Date; end: Date }[] {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const out: { date: string; start: Date; end: Date }[] = [];
  for (let d = 1; d <= days; d++) {
    const date = `${month}-${String(d).padStart(2, '0')}`;
    out.push({ date, ...localDayRange(date, timeZone) });
  }
  return out;
}
