import type { RequestHandler } from 'express';
import { clientIp } from '../../common/http/client';
import { matchedOperation } from '../../common/http/matched-operation';
import type { RateLimitConfig } from '../config';
import { FixedWindowLimiter } from '../domain/rate-limit';
import { TooManyRequests } from '../model/errors';

/**
 * The routing operations' per-IP limits, checked before the body is read or validated (a flood of bad
 * bodies is still a flood). Each operation counts on its own; the others have no limit.
 */
export function rateLimits(config: RateLimitConfig, now: () => number = Date.now): RequestHandler {
  const limiters = new Map<string, FixedWindowLimiter>([
    ['planRoute', new FixedWindowLimiter(config.route, config.windowMs, now)],
    ['listRouteStations', new FixedWindowLimiter(config.routeStations, config.windowMs, now)],
    ['streamRouteDetours', new FixedWindowLimiter(config.routeDetour, config.windowMs, now)],
  ]);
  return (req, _res, next) => {
    const operation = matchedOperation(req);
    const limiter = operation && limiters.get(operation.operationId);
    if (!limiter) return next();
    // Behind its proxy: the forwarded address, else one shared bucket (as the original service).
    const decision = limiter.hit(clientIp(req, { trustProxyHeaders: true, withoutHeader: 'shared' }));
    if (decision.allowed) return next();
    next(new TooManyRequests(decision.retryAfter));
  };
}
