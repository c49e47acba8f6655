import type { RequestHandler } from 'express';
import { clientIp } from '../../common/http/client';
import type { OperationHooks } from '../../common/http/operations';
import type { RateLimitConfig } from '../config';
import { FixedWindowLimiter } from '../domain/rate-limit';
import { TooManyRequests } from '../model/errors';

/** One operation's per-IP limit, checked before the body is read or validated (a flood of bad bodies is still a flood). */
function limit(limiter: FixedWindowLimiter): RequestHandler {
  return (req, _res, next) => {
    // Behind its proxy: the forwarded address, else one shared bucket (as the original service).
    const decision = limiter.hit(clientIp(req, { trustProxyHeaders: true, withoutHeader: 'shared' }));
    if (decision.allowed) return next();
    next(new TooManyRequests(decision.retryAfter));
  };
}

/** The routing operations' limits, hooks of those operations; each counts on its own, the others have none. */
export function routeRateLimits(config: RateLimitConfig, now: () => number = Date.now): OperationHooks {
  const hook = (perWindow: number) => [limit(new FixedWindowLimiter(perWindow, config.windowMs, now))];
  return {
    planRoute: hook(config.route),
    listRouteStations: hook(config.routeStations),
    streamRouteDetours: hook(config.routeDetour),
  };
}
