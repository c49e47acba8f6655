import { describe, expect, it } from 'vitest';
import { loginLimiter } from './rate-limit';

describe('login rate limit', () => {
  it('allows 15 attempts per key in 5 minutes, then refuses until the oldest leaves the window', () => {
    let now = 1_000_000;
    const limiter = loginLimiter(() => now);
    for (let i = 0; i < 15; i++) {
      expect(limiter.attempt('10.0.0.1').allowed).toBe(true);
      now += 1000;
    }
    const refused = limiter.attempt('10.0.0.1');
    expect(refused).toEqual({ allowed: false, retryAfter: 285 });
    expect(limiter.attempt('10.0.0.2').allowed).toBe(true);
    now = 1_000_000 + 300_000 + 1;
    expect(limiter.attempt('10.0.0.1').allowed).toBe(true);
    expect(limiter.attempt('10.0.0.1').allowed).toBe(false);
  });
});
