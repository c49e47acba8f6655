import type { Express } from 'express';
import type { Logger } from 'pino';
import type { operations } from '../../../generated/fuel/types';
import { createServiceApp } from '../../common/http/app';
import type { Handlers } from '../../common/http/operations';
import type { FuelConfig } from '../config';
import { Semaphore } from '../domain/semaphore';
import { TILE_CACHE_BYTES, TileCache } from '../domain/tiles';
import type { FuelStore } from '../store/store';
import { ExchangeRates } from '../upstreams/exchange-rates';
import { OsrmClient } from '../upstreams/osrm';
import { fuelBadTarget, fuelErrorMapper, fuelMethodNotAllowed, fuelNotFound } from './errors';
import { exchangeRatesHandlers } from './handlers/exchange-rates';
import { geocodingHandlers } from './handlers/geocoding';
import { historyHandlers } from './handlers/history';
import { metaHandlers } from './handlers/meta';
import { routingHandlers } from './handlers/routing';
import { stationsHandlers } from './handlers/stations';
import { webHandlers } from './handlers/web';
import { routeRateLimits } from './rate-limit';
import type { FuelWiring } from './wiring';

export interface FuelAppOptions {
  config: FuelConfig;
  store: FuelStore;
  logger: Logger;
  /** The fetch used for the routing engine, geocoder and rate feed. */
  fetchImpl?: typeof fetch;
  /** Clock of the rate limits and the rate cache. */
  now?: () => number;
  /** Where the built web page is (default `web/dist`; tests serve pages made from the document's examples). */
  webDist?: string;
}

/** Every operation's handler, made once from the app's wiring (a missing or mistyped one fails `tsc`). */
export function fuelHandlers(wiring: FuelWiring) {
  return {
    ...metaHandlers(wiring),
    ...stationsHandlers(wiring),
    ...historyHandlers(wiring),
    ...geocodingHandlers(wiring),
    ...exchangeRatesHandlers(wiring),
    ...routingHandlers(wiring),
    ...webHandlers(wiring),
  } satisfies Handlers<operations>;
}

/** The app and the wiring its handlers were made from (as every service's factory answers). */
export interface FuelApp {
  app: Express;
  wiring: FuelWiring;
}

export function createFuelApp(options: FuelAppOptions): FuelApp {
  const { config, store, logger } = options;
  const fetchImpl = options.fetchImpl ?? fetch;
  const now = options.now ?? Date.now;
  const wiring: FuelWiring = {
    config,
    store,
    engine: new OsrmClient(config.routing.url, fetchImpl),
    inflight: new Semaphore(config.routing.maxInflight),
    rates: new ExchangeRates(config.exchangeRates, fetchImpl, now),
    fetchImpl,
    tiles: new TileCache(TILE_CACHE_BYTES),
    webDist: options.webDist,
  };
  const app = createServiceApp({
    service: 'fuel',
    handlers: fuelHandlers(wiring),
    logger,
    errorMapper: fuelErrorMapper,
    answers: { badTarget: fuelBadTarget, notFound: fuelNotFound, methodNotAllowed: fuelMethodNotAllowed },
    validateResponses: config.validateResponses,
    hooks: routeRateLimits(config.rateLimits, now),
    // As the original service: parameters a route does not know are ignored, not refused.
    allowUnknownQueryParameters: true,
  });
  return { app, wiring };
}
