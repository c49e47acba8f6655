/**
 * A sliding-window counter per key: at most `limit` attempts within `windowMs`. An attempt is counted
 * when it is let through, before the work it guards is done, so requests that arrive together cannot all
 * pass a check that would only count them afterwards. Kept in memory: a restart forgets it.
 */
import type { RateDecision } from './http/client';

export type { RateDecision };

export class SlidingWindowLimiter {
  private readonly attempts = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records an attempt when it is allowed; a refused attempt does not extend the wait. */
  attempt(key: string): RateDecision {
    const wait = this.waitFor(key);
    if (wait > 0) return { allowed: false, retryAfter: wait };
    this.record(key);
    return { allowed: true, retryAfter: 0 };
  }

  /** Seconds until `key` may try again; 0 when it may now (nothing recorded). */
  waitFor(key: string): number {
    const now = this.now();
    const recent = this.recent(key, now);
    if (recent.length < this.limit) return 0;
    const oldest = recent[recent.length - this.limit] ?? now;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }

  record(key: string): void {
    const now = this.now();
    this.recent(key, now).push(now);
    if (this.attempts.size > 10_000) this.prune(now);
  }

  /** Gives back the newest attempt of `key` (it turned out not to count: a sign-in that succeeded). */
  release(key: string): void {
    this.attempts.get(key)?.pop();
  }

  forget(key: string): void {
    this.attempts.delete(key);
  }

  private recent(key: string, now: number): number[] {
    const times = (this.attempts.get(key) ?? []).filter((t) => t > now - this.windowMs);
    this.attempts.set(key, times);
    return times;
  }

  private prune(now: number): void {
    for (const [key, times] of this.attempts) {
      if (!times.some((t) => t > now - this.windowMs)) this.attempts.delete(key);
    }
  }
}
