import { SlidingWindowLimiter } from '../../common/sliding-window';

export type { RateDecision } from '../../common/sliding-window';
export { SlidingWindowLimiter };

/** The seed's login limit: 15 attempts per client IP in 5 minutes, shared by both login routes. */
export const loginLimiter = (now?: () => number) => new SlidingWindowLimiter(15, 5 * 60_000, now);
