import { describe, expect, it } from 'vitest';
import { isValidTimeZone, localDayRange, localMonthDays } from './timezone';

describe('local days', () => {
  it('knows IANA names', () => {
    expect(isValidTimeZone('Europe/Stockholm')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });

  it('turns a local day into UTC bounds, across daylight-saving changes', () => {
    expect(localDayRange('2026-03-14', 'Europe/Stockholm')).toEqual({
      start: new Date('2026-03-13T23:00:00Z'),
      end: new Date('2026-03-14T23:00:00Z'),
    });
    // Clocks go forward on 29 March 2026 in Stockholm: that day is 23 hours long.
    const spring = localDayRange('2026-03-29', 'Europe/Stockholm');
    expect(spring.start.toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(spring.end.toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(localDayRange('2026-03-08', 'America/New_York').end.toISOString()).toBe(
      '2026-03-09T04:00:00.000Z',
    );
    expect(localDayRange('2026-01-01', 'Asia/Kolkata').start.toISOString()).toBe('2025-12-31T18:30:00.000Z');
  });

  it('lists the days of a month', () => {
    expect(localMonthDays('2028-02', 'UTC')).toHaveLength(29);
    expect(localMonthDays('2026-02', 'UTC')[27]?.date).toBe('2026-02-28');
  });
});
