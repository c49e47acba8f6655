import type { Express } from 'express';
import type { Logger } from 'pino';
import type { operations } from '../../../generated/subtitles/types';
import { createServiceApp } from '../../common/http/app';
import type { Handlers } from '../../common/http/operations';
import { SignInThrottle } from '../domain/sign-in-throttle';
import { errorMapper, notFound } from './errors';
import { gate } from './gate';
import * as queue from './handlers/queue';
import * as setup from './handlers/setup';
import * as system from './handlers/system';
import * as users from './handlers/users';
import * as web from './handlers/web';
import type { Services } from './services';

export const handlers = { ...setup, ...queue, ...users, ...system, ...web } satisfies Handlers<operations>;

export function createSubtitlesApp(wired: Omit<Services, 'signIns'>, logger: Logger): Express {
  const services: Services = { ...wired, signIns: new SignInThrottle(wired.config.signInLimits) };
  const { config, store, settings } = services;
  const app = createServiceApp({
    service: 'subtitles',
    handlers: handlers,
    logger,
    errorMapper,
    notFound,
    validateResponses: config.validateResponses,
    frontDoor: gate({
      basePath: config.basePath,
      pluginName: config.pluginName,
      pluginEnabled: config.pluginEnabled,
      store,
      legacyAuthorization: () => settings.legacy.enabled,
    }),
    jsonLimit: '64kb',
  });
  app.locals.subtitles = services;
  return app;
}
