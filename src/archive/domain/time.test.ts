import { describe, expect, it } from 'vitest';
import { isTimeZone, parseApiTimestamp, parseDay, requireTimeZone } from './time';

const iso = (date: Date) => date.toISOString();

describe('API time parameters', () => {
  it('knows IANA names and refuses others with a 400', () => {
    expect(isTimeZone('Europe/Stockholm')).toBe(true);
    expect(() => requireTimeZone('Mars/Olympus')).toThrow('Unknown timezone: Mars/Olympus');
  });

  it('reads a missing offset as UTC and converts offsets', () => {
    expect(iso(parseApiTimestamp('2026-03-14T09:21:07', 'x'))).toBe('2026-03-14T09:21:07.000Z');
    expect(iso(parseApiTimestamp('2026-03-14T10:21:07+01:00', 'x'))).toBe('2026-03-14T09:21:07.000Z');
    expect(iso(parseApiTimestamp('2026-03-14T04:21-0500', 'x'))).toBe('2026-03-14T09:21:00.000Z');
    expect(iso(parseApiTimestamp('2026-03-14', 'x'))).toBe('2026-03-14T00:00:00.000Z');
    expect(iso(parseApiTimestamp('2026-03-14T09:21:07.25Z', 'x'))).toBe('2026-03-14T09:21:07.250Z');
  });

  it('refuses dates that do not exist', () => {
    expect(() => parseApiTimestamp('2026-02-30T00:00:00Z', 'since')).toThrow(/since/);
    expect(() => parseApiTimestamp('2026-03-14T25:00:00Z', 'since')).toThrow(/since/);
    expect(() => parseApiTimestamp('yesterday', 'since')).toThrow(/since/);
    expect(() => parseDay('2026-02-29')).toThrow(/Invalid date/);
    expect(parseDay('2028-02-29')).toEqual({ y: 2028, m: 2, d: 29 });
  });
});
