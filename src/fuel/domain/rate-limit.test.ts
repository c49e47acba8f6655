import { describe, expect, it } from 'vitest';
import { clientIp, FixedWindowLimiter } from './rate-limit';

describe('FixedWindowLimiter', () => {
  it('allows the limit per window, then refuses with the seconds left, then opens a new window', () => {
    let now = 1_000_000;
    const limiter = new FixedWindowLimiter(3, 60_000, () => now);
    expect([1, 2, 3].map(() => limiter.hit('a').ok)).toEqual([true, true, true]);
    now += 20_500;
    expect(limiter.hit('a')).toEqual({ ok: false, retryAfterSeconds: 40 });
    expect(limiter.hit('b').ok).toBe(true);
    now += 39_499;
    expect(limiter.hit('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
    now += 1;
    expect(limiter.hit('a').ok).toBe(true);
  });
});

describe('clientIp', () => {
  const headers = (h: Record<string, string>) => (name: string) => h[name];
  it('takes the first X-Forwarded-For entry, then X-Real-IP, then the shared bucket', () => {
    expect(clientIp(headers({ 'x-forwarded-for': ' 203.0.113.7 , 10.0.0.1', 'x-real-ip': '1.1.1.1' }))).toBe(
      '203.0.113.7',
    );
    expect(clientIp(headers({ 'x-forwarded-for': '', 'x-real-ip': '198.51.100.2' }))).toBe('198.51.100.2');
    expect(clientIp(headers({}))).toBe('unknown');
  });
});
