/** Dates shown in the viewer's time zone (VIEWER_TIMEZONE, as `/api/stats` reports it). */
let zone: string | undefined;

export function setTimeZone(name: string | undefined): void {
  try {
    if (name) new Intl.DateTimeFormat(undefined, { timeZone: name });
    zone = name || undefined;
  } catch {
    zone = undefined;
  }
}

export const timeZone = () => zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;

/** `YYYY-MM-DD` of an instant in the viewer's zone. */
export function dayOf(iso: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: timeZone(),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

export const formatDay = (day: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeZone: 'UTC' }).format(
    new Date(`${day}T12:00:00Z`),
  );

export const formatTime = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { timeStyle: 'short', timeZone: timeZone() }).format(new Date(iso));

export const formatDateTime = (iso: string | null | undefined) =>
  iso
    ? new Intl.DateTimeFormat(undefined, {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: timeZone(),
      }).format(new Date(iso))
    : '—';

/** A chat list's date: the time for today, the day and month this year, else the date. */
export function formatListDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const day = dayOf(iso);
  const today = dayOf(new Date().toISOString());
  if (day === today) return formatTime(iso);
  const options: Intl.DateTimeFormatOptions =
    day.slice(0, 4) === today.slice(0, 4)
      ? { day: 'numeric', month: 'short', timeZone: timeZone() }
      : { dateStyle: 'short', timeZone: timeZone() };
  return new Intl.DateTimeFormat(undefined, options).format(new Date(iso));
}
