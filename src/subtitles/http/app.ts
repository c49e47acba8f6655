import type { Express } from 'express';
import type { Logger } from 'pino';
import type { operations } from '../../../generated/subtitles/types';
import { createServiceApp } from '../../common/http/app';
import type { Handlers } from '../../common/http/operations';
import { SignInThrottle } from '../domain/sign-in-throttle';
import { badTarget, errorMapper, methodNotAllowed, notFound } from './errors';
import { gate, gateMatching } from './gate';
import { queueHandlers } from './handlers/queue';
import { setupHandlers } from './handlers/setup';
import { systemHandlers } from './handlers/system';
import { usersHandlers } from './handlers/users';
import { webHandlers } from './handlers/web';
import { webClientHandlers } from './handlers/web-client';
import type { Services } from './services';

/** Every operation's handler, made once from the app's wiring (a missing or mistyped one fails `tsc`). */
export function subtitlesHandlers(services: Services) {
  return {
    ...setupHandlers(services),
    ...queueHandlers(services),
    ...usersHandlers(services),
    ...systemHandlers(services),
    ...webHandlers(services),
    ...webClientHandlers(services),
  } satisfies Handlers<operations>;
}

export function createSubtitlesApp(wired: Omit<Services, 'signIns'>, logger: Logger): Express {
  const services: Services = { ...wired, signIns: new SignInThrottle(wired.config.signInLimits) };
  const { config, store, settings } = services;
  const gateSettings = {
    basePath: config.basePath,
    pluginName: config.pluginName,
    pluginEnabled: config.pluginEnabled,
    store,
    legacyAuthorization: () => settings.legacy.enabled,
  };
  const app = createServiceApp({
    service: 'subtitles',
    handlers: subtitlesHandlers(services),
    logger,
    errorMapper,
    answers: { badTarget, notFound, methodNotAllowed },
    validateResponses: config.validateResponses,
    matching: gateMatching(gateSettings),
    before: [gate(gateSettings)],
    jsonLimit: '64kb',
  });
  return app;
}
