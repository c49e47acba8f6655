import type { RequestHandler } from 'express';

/**
 * Same-origin policy for everything the viewer serves: scripts and styles only from the viewer's own
 * files (no inline script, no eval), images and media also from blob:/data:, the WebSocket on its own host
 * and port.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  // 'self' covers the page's own WebSocket (ws: or wss: on the same host and port), and nothing else.
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/** The seed's headers, on every response (errors and 404s included; `nosniff` comes from the common app). */
export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Frame-Options', 'SAMEORIGIN');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  next();
};

const ALLOWED_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';

/** Whether `origin` may read answers (and, with a list, send the session cookie). */
const allows = (origins: '*' | string[], origin: string | undefined) =>
  origins === '*' || (origin !== undefined && origins.includes(origin));

/**
 * `CORS_ORIGINS`: `*` (the default) lets any origin read answers but never with credentials; a list of
 * origins lets exactly those send the session cookie. On every answer, the front door's own included.
 */
export function corsHeaders(origins: '*' | string[]): RequestHandler {
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origins === '*') {
      res.setHeader('Access-Control-Allow-Origin', '*');
    } else {
      res.append('Vary', 'Origin');
      if (origin && allows(origins, origin)) {
        res.setHeader('Access-Control-Allow-Origin', origin);
        res.setHeader('Access-Control-Allow-Credentials', 'true');
      }
    }
    next();
  };
}

/** The answer to a preflight on a path the document knows (the front door finds it; corsHeaders ran). */
export function corsPreflight(origins: '*' | string[]): RequestHandler {
  return (req, res) => {
    if (allows(origins, req.headers.origin)) {
      res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
      const requested = req.headers['access-control-request-headers'];
      if (requested) res.setHeader('Access-Control-Allow-Headers', requested);
      res.setHeader('Access-Control-Max-Age', '600');
    }
    res.status(204).end();
  };
}
