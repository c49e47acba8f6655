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
import type { SubtitlesWiring } from './wiring';

/** Every operation's handler, made once from the app's wiring (a missing or mistyped one fails `tsc`). */
export function subtitlesHandlers(wiring: SubtitlesWiring) {
  return {
    ...setupHandlers(wiring),
    ...queueHandlers(wiring),
    ...usersHandlers(wiring),
    ...systemHandlers(wiring),
    ...webHandlers(wiring),
    ...webClientHandlers(wiring),
  } satisfies Handlers<operations>;
}

/** What the app is made from: the wiring (its sign-in throttle is made here) and the logger. */
export type SubtitlesAppOptions = Omit<SubtitlesWiring, 'signIns'> & { logger: Logger };

/** The app and the wiring its handlers were made from (as every service's factory answers). */
export interface SubtitlesApp {
  app: Express;
  wiring: SubtitlesWiring;
}

export function createSubtitlesApp(options: SubtitlesAppOptions): SubtitlesApp {
  const { logger, ...wired } = options;
  const wiring: SubtitlesWiring = { ...wired, signIns: new SignInThrottle(wired.config.signInLimits) };
  const { config, store, settings } = wiring;
  const gateSettings = {
    basePath: config.basePath,
    pluginName: config.pluginName,
    pluginEnabled: config.pluginEnabled,
    store,
    legacyAuthorization: () => settings.legacy.enabled,
  };
  const app = createServiceApp({
    service: 'subtitles',
    handlers: subtitlesHandlers(wiring),
    logger,
    errorMapper,
    answers: { badTarget, notFound, methodNotAllowed },
    validateResponses: config.validateResponses,
    matching: gateMatching(gateSettings),
    before: [gate(gateSettings)],
    jsonLimit: '64kb',
  });
  return { app, wiring };
}
