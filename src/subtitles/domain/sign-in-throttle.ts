/**
 * Sign-ins, counted per client address: a client that keeps guessing is refused (429 with `Retry-After`)
 * before any password is checked, first for the user name it guesses, then for every name. Each attempt is
 * counted before its password is checked and given back when it succeeds, so guesses sent all at once
 * are held to the limit as guesses sent one by one are. The media server this host imitates locks a user
 * out after a few failures, for everyone, until an administrator lets them back in; here the lock holds
 * only for the client that failed, and only for a while, so nobody can lock a user out by failing on
 * purpose. A success clears the client's failures for that user. Kept in memory: a restart forgets it.
 */
import { SlidingWindowLimiter } from '../../common/sliding-window';
import type { SignInLimits } from '../config';

export class SignInThrottle {
  private readonly perClient: SlidingWindowLimiter;
  private readonly perUser: SlidingWindowLimiter;

  constructor(limits: SignInLimits, now: () => number = Date.now) {
    this.perClient = new SlidingWindowLimiter(limits.perClient, limits.windowMs, now);
    this.perUser = new SlidingWindowLimiter(limits.perUser, limits.windowMs, now);
  }

  /**
   * Seconds this client must wait before trying this name; 0 when it may try now, and the attempt is then
   * counted as a failure until `succeeded` gives it back.
   */
  attempt(client: string, name: string): number {
    const wait = Math.max(
      this.perClient.waitFor(clientKey(client)),
      this.perUser.waitFor(userKey(client, name)),
    );
    if (wait > 0) return wait;
    this.perClient.record(clientKey(client));
    this.perUser.record(userKey(client, name));
    return 0;
  }

  succeeded(client: string, name: string): void {
    this.perClient.release(clientKey(client));
    this.perUser.forget(userKey(client, name));
  }
}

const clientKey = (client: string) => client;
// User names match without regard to case (as the sign-in does).
const userKey = (client: string, name: string) => `${client}\u0000${name.trim().toLowerCase()}`;
