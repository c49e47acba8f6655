/**
 * Failed sign-ins, counted per client address: a client that keeps guessing is refused (429 with
 * `Retry-After`) before any password is checked, first for the user name it guesses, then for every
 * name. The media server this host imitates locks a user out after a few failures, for everyone, until an
 * administrator lets them back in; here the lock holds only for the client that failed, and only for a
 * while, so nobody can lock a user out by failing on purpose. A success clears the client's failures for
 * that user. Kept in memory: a restart forgets it.
 */
import type { SignInLimits } from '../config';

export class SignInThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limits: SignInLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until this client may try this name again; 0 when it may try now. */
  waitFor(client: string, name: string): number {
    const at = this.now();
    const waits = [
      this.wait(clientKey(client), this.limits.perClient, at),
      this.wait(userKey(client, name), this.limits.perUser, at),
    ];
    return Math.max(...waits);
  }

  failed(client: string, name: string): void {
    const at = this.now();
    for (const key of [clientKey(client), userKey(client, name)]) this.recent(key, at).push(at);
    if (this.failures.size > 10_000) this.prune(at);
  }

  succeeded(client: string, name: string): void {
    this.failures.delete(userKey(client, name));
  }

  private wait(key: string, limit: number, at: number): number {
    const times = this.recent(key, at);
    if (times.length < limit) return 0;
    const oldest = times[times.length - limit] ?? at;
    return Math.max(1, Math.ceil((oldest + this.limits.windowMs - at) / 1000));
  }

  private recent(key: string, at: number): number[] {
    const times = (this.failures.get(key) ?? []).filter((t) => t > at - this.limits.windowMs);
    this.failures.set(key, times);
    return times;
  }

  private prune(at: number): void {
    for (const [key, times] of this.failures) {
      if (!times.some((t) => t > at - this.limits.windowMs)) this.failures.delete(key);
    }
  }
}

const clientKey = (client: string) => `c\u0000${client}`;
// User names match without regard to case (as the sign-in does).
const userKey = (client: string, name: string) => `u\u0000${client}\u0000${name.trim().toLowerCase()}`;
