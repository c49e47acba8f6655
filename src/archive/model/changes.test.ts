import { describe, expect, it } from 'vitest';
import { pageWithoutSplitTies, parseApiTimestamp, splitInstant } from './changes';

describe('parseApiTimestamp', () => {
  it('reads offsets, missing offsets as UTC, and bare dates as midnight UTC', () => {
    expect(parseApiTimestamp('2026-03-14T09:24:51Z')?.toISOString()).toBe('2026-03-14T09:24:51.000Z');
    expect(parseApiTimestamp('2026-03-14T09:24:51')?.toISOString()).toBe('2026-03-14T09:24:51.000Z');
    expect(parseApiTimestamp('2026-03-14T11:24:51.5+0200')?.toISOString()).toBe('2026-03-14T09:24:51.500Z');
    expect(parseApiTimestamp('2026-03-14')?.toISOString()).toBe('2026-03-14T00:00:00.000Z');
  });

  it('refuses impossible dates and junk', () => {
    for (const bad of ['2026-02-30', '2026-13-01', '2026-03-14T25:00', 'yesterday', '']) {
      expect(parseApiTimestamp(bad)).toBeNull();
    }
  });
});

describe('pageWithoutSplitTies', () => {
  const date = (r: { d: string }) => r.d;
  it('holds back entries sharing the boundary timestamp', () => {
    const rows = [{ d: '3' }, { d: '2' }, { d: '2' }, { d: '2' }];
    expect(pageWithoutSplitTies(rows, 3, date)).toEqual([{ d: '3' }]);
    expect(pageWithoutSplitTies(rows.slice(0, 3), 3, date)).toHaveLength(3);
    expect(pageWithoutSplitTies([{ d: '2' }, { d: '2' }, { d: '2' }], 2, date)).toHaveLength(2);
  });

  it('names the instant a whole page shares with the entry after it', () => {
    expect(splitInstant([{ d: '2' }, { d: '2' }, { d: '2' }], 2, date)).toBe('2');
    expect(splitInstant([{ d: '3' }, { d: '2' }, { d: '2' }], 2, date)).toBeNull();
    expect(splitInstant([{ d: '2' }, { d: '2' }], 2, date)).toBeNull();
  });
});
