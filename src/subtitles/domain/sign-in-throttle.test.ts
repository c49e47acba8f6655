import { describe, expect, it } from 'vitest';
import { SignInThrottle } from './sign-in-throttle';

describe('SignInThrottle', () => {
  it('makes a client wait until its oldest counted failure leaves the window', () => {
    let now = 0;
    const throttle = new SignInThrottle({ perUser: 3, perClient: 100, windowMs: 60_000 }, () => now);
    for (const at of [0, 10_000, 20_000]) {
      now = at;
      expect(throttle.attempt('a', 'Admin')).toBe(0);
    }
    expect(throttle.attempt('a', 'admin')).toBe(40);
    expect(throttle.attempt('b', 'admin')).toBe(0);
    expect(throttle.attempt('a', 'viewer')).toBe(0);
    now = 60_001;
    expect(throttle.attempt('a', 'admin')).toBe(0);
  });

  it('counts every name of a client against its overall limit', () => {
    const throttle = new SignInThrottle({ perUser: 100, perClient: 2, windowMs: 60_000 }, () => 0);
    throttle.attempt('a', 'x');
    throttle.attempt('a', 'y');
    expect(throttle.attempt('a', 'z')).toBe(60);
    expect(throttle.attempt('b', 'z')).toBe(0);
  });

  it('counts attempts in flight: the limit holds before any of them is answered', () => {
    const throttle = new SignInThrottle({ perUser: 5, perClient: 100, windowMs: 60_000 }, () => 0);
    const letThrough = Array.from({ length: 60 }, () => throttle.attempt('a', 'admin')).filter(
      (w) => w === 0,
    );
    expect(letThrough).toHaveLength(5);
  });

  it('gives back an attempt that succeeded, and clears the failures for that name', () => {
    const throttle = new SignInThrottle({ perUser: 3, perClient: 3, windowMs: 60_000 }, () => 0);
    throttle.attempt('a', 'admin');
    throttle.attempt('a', 'admin');
    throttle.succeeded('a', 'admin');
    // One failure was counted for the client (the success was given back), none for the name.
    expect(throttle.attempt('a', 'admin')).toBe(0);
    expect(throttle.attempt('a', 'admin')).toBe(0);
    expect(throttle.attempt('a', 'admin')).toBe(60);
  });
});
