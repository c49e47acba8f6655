import type { Express } from 'express';
import type { Logger } from 'pino';
import type { operations } from '../../../generated/fuel/types';
import { createServiceApp } from '../../common/http/app';
import type { Handlers } from '../../common/http/operations';
import { sameOriginPolicy, webPage } from '../../common/http/web-page';
import type { FuelConfig } from '../config';
import { Semaphore } from '../domain/semaphore';
import type { FuelStore } from '../store/store';
import { ExchangeRates } from '../upstreams/exchange-rates';
import { OsrmClient } from '../upstreams/osrm';
import type { FuelContext } from './context';
import { fuelErrorMapper, fuelNotFound } from './errors';
import * as exchangeRates from './handlers/exchange-rates';
import * as geocoding from './handlers/geocoding';
import * as history from './handlers/history';
import * as meta from './handlers/meta';
import * as routing from './handlers/routing';
import * as stations from './handlers/stations';
import { rateLimits } from './rate-limit';

export interface FuelAppOptions {
  config: FuelConfig;
  store: FuelStore;
  logger: Logger;
  /** The fetch used for the routing engine, geocoder and rate feed. */
  fetchImpl?: typeof fetch;
  /** Clock of the rate limits and the rate cache. */
  now?: () => number;
  /** The web map's base style (`APP_MAP_STYLE_URL`); its origin is let through the page's policy. */
  mapStyleUrl?: string;
}

/** An OpenStreetMap-based vector style whose tiles, glyphs and sprites come from the style's own host. */
export const DEFAULT_MAP_STYLE_URL = 'https://tiles.openfreemap.org/styles/liberty';

function mapPage(styleUrl: string) {
  let origin: string[] = [];
  try {
    const parsed = new URL(styleUrl);
    if (parsed.protocol === 'https:' || parsed.protocol === 'http:') origin = [parsed.origin];
  } catch {
    // A path on the fuel server itself: the policy's 'self'.
  }
  return webPage({
    service: 'fuel',
    contentSecurityPolicy: sameOriginPolicy({ connect: origin, img: origin }),
    meta: { 'map-style': styleUrl },
  });
}

export const fuelHandlers = {
  ...meta,
  ...stations,
  ...history,
  ...geocoding,
  ...exchangeRates,
  ...routing,
} satisfies Handlers<operations>;

export function createFuelApp(options: FuelAppOptions): Express {
  const { config, store, logger } = options;
  const fetchImpl = options.fetchImpl ?? fetch;
  const now = options.now ?? Date.now;
  const context: FuelContext = {
    config,
    store,
    engine: new OsrmClient(config.routing.url, fetchImpl),
    inflight: new Semaphore(config.routing.maxInflight),
    rates: new ExchangeRates(config.exchangeRates, fetchImpl, now),
    fetchImpl,
  };
  const app = createServiceApp({
    service: 'fuel',
    handlers: fuelHandlers,
    logger,
    errorMapper: fuelErrorMapper,
    notFound: fuelNotFound,
    validateResponses: config.validateResponses,
    before: [
      mapPage(options.mapStyleUrl ?? process.env.APP_MAP_STYLE_URL ?? DEFAULT_MAP_STYLE_URL),
      rateLimits(config.rateLimits, now),
    ],
    // As the original service: parameters a route does not know are ignored, not refused.
    allowUnknownQueryParameters: true,
  });
  app.locals.fuel = context;
  return app;
}
