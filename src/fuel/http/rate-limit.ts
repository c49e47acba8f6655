import type { RequestHandler } from 'express';
import { clientIp } from '../../common/http/client';
import type { RateLimitConfig } from '../config';
import { TooManyRequests } from '../domain/errors';
import { FixedWindowLimiter } from '../domain/rate-limit';

/**
 * The POST routes' per-IP limits, checked before the body is read or validated (a flood of bad bodies is
 * still a flood). Each route counts on its own; GET routes have no limit.
 */
export function rateLimits(config: RateLimitConfig, now: () => number = Date.now): RequestHandler {
  const limiters = new Map<string, FixedWindowLimiter>([
    ['/api/route', new FixedWindowLimiter(config.route, config.windowMs, now)],
    ['/api/route-stations', new FixedWindowLimiter(config.routeStations, config.windowMs, now)],
    ['/api/route-detour', new FixedWindowLimiter(config.routeDetour, config.windowMs, now)],
  ]);
  return (req, _res, next) => {
    if (req.method !== 'POST') return next();
    const limiter = limiters.get(req.path.toLowerCase().replace(/\/+$/, ''));
    if (!limiter) return next();
    // Behind its proxy: the forwarded address, else one shared bucket (as the original service).
    const decision = limiter.hit(clientIp(req, { trustProxyHeaders: true, withoutHeader: 'shared' }));
    if (decision.allowed) return next();
    next(new TooManyRequests(decision.retryAfter));
  };
}
