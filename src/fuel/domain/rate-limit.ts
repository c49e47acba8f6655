/**
 * Fixed one-minute windows per key, in process memory: the first request opens a window, and once the
 * count reaches the limit further requests are refused until the window ends.
 */
export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

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
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - now) / 1000)) };
    }
    window.count++;
    return { ok: true };
  }

  /** Forgets ended windows now and then, so one-off clients do not pile up. */
  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + this.windowMs;
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }
}

/** The first `X-Forwarded-For` entry, else `X-Real-IP`, else one shared bucket. */
export function clientIp(header: (name: string) => string | undefined): string {
  const forwarded = header('x-forwarded-for')?.split(',')[0]?.trim();
  if (forwarded) return forwarded;
  const real = header('x-real-ip')?.trim();
  return real || 'unknown';
}
