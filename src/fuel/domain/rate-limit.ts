/**
 * Fixed one-minute windows per key, in process memory: the first request opens a window, and once the
 * count reaches the limit further requests are refused until the window ends.
 */
import type { RateDecision } from '../../common/http/client';

export type { RateDecision } from '../../common/http/client';

export class FixedWindowLimiter {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private nextSweep = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  hit(key: string): RateDecision {
    const now = this.now();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    if (window.count >= this.limit) {
      return { allowed: false, retryAfter: Math.max(1, Math.ceil((window.endsAt - now) / 1000)) };
    }
    window.count++;
    return { allowed: true, retryAfter: 0 };
  }

  /** Forgets ended windows now and then, so one-off clients do not pile up. */
  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + this.windowMs;
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }
}
