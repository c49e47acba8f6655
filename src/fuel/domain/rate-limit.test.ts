import { describe, expect, it } from 'vitest';
import { FixedWindowLimiter } from './rate-limit';

describe('FixedWindowLimiter', () => {
  it('allows the limit per window, then refuses with the seconds left, then opens a new window', () => {
    let now = 1_000_000;
    const limiter = new FixedWindowLimiter(3, 60_000, () => now);
    expect([1, 2, 3].map(() => limiter.hit('a').allowed)).toEqual([true, true, true]);
    now += 20_500;
    expect(limiter.hit('a')).toEqual({ allowed: false, retryAfter: 40 });
    expect(limiter.hit('b').allowed).toBe(true);
    now += 39_499;
    expect(limiter.hit('a')).toEqual({ allowed: false, retryAfter: 1 });
    now += 1;
    expect(limiter.hit('a').allowed).toBe(true);
  });
});
