import type { RequestHandler } from 'express';

/**
 * One line per answered request: method, path (never the query string, which may carry search text),
 * status and time taken. Cookies, tokens and bodies are never logged.
 */
export const requestLog: RequestHandler = (req, res, next) => {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    req.log.info(
      { method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms) },
      'request',
    );
  });
  next();
};
