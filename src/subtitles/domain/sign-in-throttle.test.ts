import { describe, expect, it } from 'vitest';
import { SignInThrottle } from './sign-in-throttle';

describe('SignInThrottle', () => {
  it('makes a client wait until its oldest counted failure leaves the window', () => {
    let now = 0;
    const throttle = new SignInThrottle({ perUser: 3, perClient: 100, windowMs: 60_000 }, () => now);
    for (const at of [0, 10_000, 20_000]) {
      now = at;
      expect(throttle.waitFor('a', 'Admin')).toBe(0);
      throttle.failed('a', 'Admin');
    }
    expect(throttle.waitFor('a', 'admin')).toBe(40);
    expect(throttle.waitFor('b', 'admin')).toBe(0);
    expect(throttle.waitFor('a', 'viewer')).toBe(0);
    now = 60_001;
    expect(throttle.waitFor('a', 'admin')).toBe(0);
  });

  it('counts every name of a client against its overall limit', () => {
    const throttle = new SignInThrottle({ perUser: 100, perClient: 2, windowMs: 60_000 }, () => 0);
    throttle.failed('a', 'x');
    throttle.failed('a', 'y');
    expect(throttle.waitFor('a', 'z')).toBe(60);
    expect(throttle.waitFor('b', 'z')).toBe(0);
  });
});
