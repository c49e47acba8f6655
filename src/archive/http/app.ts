import type { Express, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { loadBundledDocument } from '../../common/documents';
import { createServiceApp } from '../../common/http/app';
import { writeContext } from '../../common/http/context';
import { type ArchiveConfig, loginModes } from '../config';
import { PASSWORD_ITERATIONS } from '../domain/passwords';
import { loginLimiter } from '../domain/rate-limit';
import { SessionManager } from '../domain/sessions';
import { Thumbnailer } from '../domain/thumbnails';
import { Live, type LiveOptions } from '../live/live';
import { type ArchiveStore, DatabaseUnavailableError } from '../store/store';
import { accessGuards, authenticate, loginLimit } from './access';
import { TtlCache } from './cache';
import { RAW_BODY } from './context';
import { badTargetHandler, errorMapper, methodNotAllowedHandler, notFoundHandler } from './errors';
import { archiveHandlers } from './handlers';
import { viewerHosts } from './hosts';
import { internalPushCaller } from './internal-access';
import { internalPushFastPath } from './internal-push';
import { exactJsonAnswers, jsonBody } from './json';
import { corsHeaders, corsPreflight, securityHeaders } from './security';
import { transcriptionCallbackBody } from './transcription-callback';
import type { ArchiveWiring } from './wiring';

export interface ArchiveAppOptions {
  config: ArchiveConfig;
  store: ArchiveStore;
  logger: Logger;
  /** PBKDF2 rounds for new passwords; tests lower it to stay fast. */
  passwordIterations?: number;
  /** How long a session read from the database is trusted before it is read again (at most 60 s). */
  sessionCacheMs?: number;
  now?: () => number;
  /** The bundled document the access levels are read from (tests pass a changed copy). */
  // biome-ignore lint/suspicious/noExplicitAny: the bundled document is walked generically.
  document?: any;
  /** WebSocket heartbeat, session check and Web Push knobs (tests, benchmarks). */
  live?: LiveOptions;
  /** Where the built web page is (default `web/dist`; tests serve pages made from the document's examples). */
  webDist?: string;
}

export interface ArchiveApp {
  app: Express;
  wiring: ArchiveWiring;
  /** Start it (`live.start()`) and attach it to the HTTP server (`live.attach(server)`) after listening. */
  live: Live;
}

export function createArchiveApp(options: ArchiveAppOptions): ArchiveApp {
  const { config, store, logger } = options;
  const now = options.now ?? Date.now;
  const sessions = new SessionManager(store, {
    lifetimeMs: config.auth.sessionDays * 86_400_000,
    cacheMs: options.sessionCacheMs ?? 30_000,
    now,
  });
  const live = new Live(
    // A WebSocket upgrade is authenticated exactly like an HTTP request.
    {
      config,
      store,
      logger,
      now,
      authenticate: (req) => authenticate(wiring, req),
      sessionIdOf: (key) => sessions.idOf(key),
    },
    options.live,
  );
  sessions.onEnded((ended) => live.hub.revoke(ended));
  const wiring: ArchiveWiring = {
    config,
    modes: loginModes(config.auth),
    store,
    sessions,
    live,
    limiter: loginLimiter(now),
    ownHost: viewerHosts(config.allowedHosts),
    chatStats: new TtlCache(60_000, now),
    passwordIterations: options.passwordIterations ?? PASSWORD_ITERATIONS,
    thumbnails: new Thumbnailer(),
    webDist: options.webDist,
    now,
    logger,
  };
  const handlers = archiveHandlers(wiring);
  const limitLogins = loginLimit(wiring);
  const app = createServiceApp({
    service: 'archive',
    handlers,
    logger,
    errorMapper: errorMapper({ logger, isDatabaseDown: (e) => e instanceof DatabaseUnavailableError }),
    answers: {
      badTarget: badTargetHandler,
      notFound: notFoundHandler,
      methodNotAllowed: methodNotAllowedHandler,
      preflight: corsPreflight(config.corsOrigins),
    },
    validateResponses: config.validateResponses,
    headers: [securityHeaders, corsHeaders(config.corsOrigins)],
    before: [
      exactJsonAnswers,
      accessGuards(options.document ?? loadBundledDocument('archive'), wiring, {
        pushInternalUpdate: internalPushCaller(wiring.live.pushSecret, wiring.ownHost),
        // A delivery is known by its signature over the exact bytes: the rule reads the body.
        receiveTranscriptionCallback: transcriptionCallbackBody(wiring),
      }),
    ],
    hooks: {
      login: [limitLogins],
      loginWithToken: [limitLogins],
      pushInternalUpdate: [internalPushFastPath(handlers.pushInternalUpdate)],
    },
    bodyReaders: [...jsonBody('1mb'), keepRawBody],
  });
  return { app, wiring, live };
}

/** Keeps a copy of the JSON body before validation coerces it. */
const keepRawBody: RequestHandler = (req, res, next) => {
  if (req.body !== undefined) writeContext(res.req, RAW_BODY, structuredClone(req.body));
  next();
};
