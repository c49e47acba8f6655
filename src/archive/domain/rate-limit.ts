import type { RateDecision } from '../../common/http/client';

export type { RateDecision } from '../../common/http/client';

/**
 * A sliding-window counter per key (the client IP): at most `limit` attempts within `windowMs`. Kept in
 * memory: a restart forgets it, as the seed's limit is per viewer process.
 */
export class SlidingWindowLimiter {
  private readonly attempts = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records an attempt when it is allowed; a refused attempt does not extend the wait. */
  attempt(key: string): RateDecision {
    const now = this.now();
    const recent = (this.attempts.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (recent.length >= this.limit) {
      this.attempts.set(key, recent);
      const oldest = recent[0] ?? now;
      return { allowed: false, retryAfter: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) };
    }
    recent.push(now);
    this.attempts.set(key, recent);
    if (this.attempts.size > 10_000) this.prune(now);
    return { allowed: true, retryAfter: 0 };
  }

  private prune(now: number): void {
    for (const [key, times] of this.attempts) {
      if (!times.some((t) => t > now - this.windowMs)) this.attempts.delete(key);
    }
  }
}

/** The seed's login limit: 15 attempts per client IP in 5 minutes, shared by both login routes. */
export const loginLimiter = (now?: () => number) => new SlidingWindowLimiter(15, 5 * 60_000, now);
