import type { Express, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { createServiceApp } from '../../common/http/app';
import type { OperationHandler } from '../../common/http/operations';
import { errorMapper, notFound } from './errors';
import { gate } from './gate';
import * as queue from './handlers/queue';
import * as setup from './handlers/setup';
import * as system from './handlers/system';
import * as users from './handlers/users';
import * as web from './handlers/web';
import type { Services } from './services';

export const handlers = { ...setup, ...queue, ...users, ...system, ...web };

/** One short line per request: method, path without the query (it may carry `ApiKey`), status, time. */
function accessLog(): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const path = req.url.split('?')[0];
    res.once('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      req.log.info({ method: req.method, path, status: res.statusCode, ms: Math.round(ms) }, 'request');
    });
    next();
  };
}

export function createSubtitlesApp(services: Services, logger: Logger): Express {
  const { config, store, settings } = services;
  const app = createServiceApp({
    service: 'subtitles',
    handlers: handlers as unknown as Record<string, OperationHandler<never>>,
    logger,
    errorMapper,
    notFound,
    validateResponses: config.validateResponses,
    before: [
      accessLog(),
      gate({
        basePath: config.basePath,
        pluginName: config.pluginName,
        pluginEnabled: config.pluginEnabled,
        store,
        legacyAuthorization: () => settings.legacy.enabled,
      }),
    ],
    jsonLimit: '64kb',
  });
  app.locals.subtitles = services;
  return app;
}
