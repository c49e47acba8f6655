/**
 * The fuel service's settings, read once from the environment (the only reader of process.env in this
 * service). A variable can carry the `FUEL_` prefix to reach this service only (`FUEL_DATABASE_URL`).
 */
import path from 'node:path';
import { boolVar, ConfigError, type Env, intVar, portVar, scopedEnv, stringVar } from '../common/env';
import { logLevelVar } from '../common/logger';
import { withoutTrailingSlashes } from '../common/text';
import { COUNTRY_SETTINGS } from './model/countries';
import { FUEL_CODES, type FuelCode, isFuelCode } from './model/fuels';
import type { LonLat } from './model/geometry';
import { parseScraperConfig, type ScraperConfig } from './scrapers/config';
import { countryFuels } from './scrapers/registry';
import type { DatabaseLocation } from './store/open';

export type { FuelCode } from './model/fuels';

export interface CountrySettings {
  code: string;
  name: string;
  center: LonLat;
  zoom: number;
  defaultFuel: FuelCode;
  /** The codes the country's enabled feeds can publish, in the document's order. */
  fuels: FuelCode[];
}

export interface MapConfig {
  defaultCountry: string;
  defaultFuel: FuelCode;
  center: LonLat;
  zoom: number;
  /** Enabled countries that have map settings, in the order given. */
  enabledCountries: CountrySettings[];
  /** Every enabled country code, with or without map settings (`US`). */
  enabledCodes: string[];
  /** The web map's base style (`APP_MAP_STYLE_URL`): an address, or a path on the fuel server itself. */
  styleUrl: string;
}

/** An OpenStreetMap-based vector style whose tiles, glyphs and sprites come from the style's own host. */
export const DEFAULT_MAP_STYLE_URL = 'https://tiles.openfreemap.org/styles/liberty';

export interface RoutingConfig {
  /** Base address of the OSRM-compatible engine; undefined when unset (routing answers 502 / -1). */
  url: string | undefined;
  /** Timeout of an A-to-B route request. */
  routeTimeoutMs: number;
  /** Timeout of a route request with waypoints. */
  waypointRouteTimeoutMs: number;
  /** Timeout of each detour request. */
  detourTimeoutMs: number;
  /** Stations measured at a time per detour request. */
  detourConcurrency: number;
  /** Engine calls in flight at once for detours, across every request (`ROUTING_MAX_INFLIGHT`). */
  maxInflight: number;
  /** Stations routed per detour request (`APP_MAX_DETOUR_STATIONS`). */
  maxDetourStations: number;
}

export interface GeocoderConfig {
  url: string | undefined;
  timeoutMs: number;
}

export interface ExchangeRatesConfig {
  url: string;
  timeoutMs: number;
  /** How long a fetched copy is served without asking the feed again. */
  cacheMs: number;
}

export interface RateLimitConfig {
  windowMs: number;
  route: number;
  routeStations: number;
  routeDetour: number;
}

export interface FuelConfig {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseLocation;
  logLevel: string;
  validateResponses: boolean;
  map: MapConfig;
  routing: RoutingConfig;
  geocoder: GeocoderConfig;
  exchangeRates: ExchangeRatesConfig;
  rateLimits: RateLimitConfig;
  scrapers: ScraperConfig;
}

export const ECB_DAILY_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';
const COUNTRY_CODE = /^[A-Z]{2}$/;
const SCRAPER_KEY = /^[A-Z0-9]+(?:_[A-Z0-9]+)+$/;

function httpUrl(env: Env, names: string[]): string | undefined {
  for (const name of names) {
    const raw = stringVar(env, name);
    if (raw === undefined) continue;
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new ConfigError(`${name} must be an http or https URL, not "${raw}"`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new ConfigError(`${name} must be an http or https URL, not "${raw}"`);
    }
    return withoutTrailingSlashes(raw);
  }
  return undefined;
}

export function parseDatabaseLocation(env: Env, dataDir: string): DatabaseLocation {
  const raw = stringVar(env, 'DATABASE_URL');
  if (raw === undefined) return { kind: 'sqlite', path: path.join(dataDir, 'fuel.db') };
  if (/^postgres(ql)?:\/\//i.test(raw)) return { kind: 'postgresql', url: raw };
  if (raw.startsWith('file:')) {
    const rest = raw.slice('file:'.length);
    const file = rest.startsWith('//') ? decodeURIComponent(new URL(raw).pathname) : rest;
    if (file === '') throw new ConfigError('DATABASE_URL file:<path> needs a path, e.g. file:./data/fuel.db');
    return { kind: 'sqlite', path: file };
  }
  throw new ConfigError(
    'DATABASE_URL must be a postgres:// URL or file:<path> (an SQLite file); unset, the store is <DATA_DIR>/fuel.db',
  );
}

function parseCountryList(env: Env): string[] {
  const raw = stringVar(env, 'APP_ENABLED_COUNTRIES');
  if (raw === undefined) return Object.keys(COUNTRY_SETTINGS);
  const codes: string[] = [];
  for (const entry of raw.split(',').map((e) => e.trim().toUpperCase())) {
    if (entry === '') continue;
    // Scraper keys (EV_FR, AU_NSW) may be listed too; they enable feeds, not map entries.
    if (SCRAPER_KEY.test(entry)) continue;
    if (!COUNTRY_CODE.test(entry)) {
      throw new ConfigError(
        `APP_ENABLED_COUNTRIES must be a comma-separated list of two-letter country codes (or scraper keys), not "${raw}" ("${entry}")`,
      );
    }
    if (!codes.includes(entry)) codes.push(entry);
  }
  return codes;
}

export function parseMapConfig(env: Env): MapConfig {
  const defaultCountry = (stringVar(env, 'APP_DEFAULT_COUNTRY') ?? 'ES').toUpperCase();
  const settings = COUNTRY_SETTINGS[defaultCountry];
  if (!settings) {
    throw new ConfigError(
      `APP_DEFAULT_COUNTRY must be a country with map settings (${Object.keys(COUNTRY_SETTINGS).join(', ')}), not "${defaultCountry}"`,
    );
  }
  const fuelRaw = stringVar(env, 'APP_DEFAULT_FUEL')?.toUpperCase();
  if (fuelRaw !== undefined && !isFuelCode(fuelRaw)) {
    throw new ConfigError(`APP_DEFAULT_FUEL must be one of ${FUEL_CODES.join(', ')}, not "${fuelRaw}"`);
  }
  const enabledCodes = parseCountryList(env);
  const scrapers = parseScraperConfig(env);
  return {
    defaultCountry,
    defaultFuel: fuelRaw ?? settings.defaultFuel,
    center: settings.center,
    zoom: settings.zoom,
    enabledCodes,
    styleUrl: stringVar(env, 'APP_MAP_STYLE_URL') ?? DEFAULT_MAP_STYLE_URL,
    enabledCountries: enabledCodes.flatMap((code) => {
      const s = COUNTRY_SETTINGS[code];
      if (!s) return [];
      const fuels = countryFuels(code, scrapers);
      // The country's own default when its feeds carry it, else the first fuel they do carry.
      const defaultFuel =
        fuels.length === 0 || fuels.includes(s.defaultFuel) ? s.defaultFuel : (fuels[0] as FuelCode);
      return [{ code, name: s.name, center: s.center, zoom: s.zoom, defaultFuel, fuels }];
    }),
  };
}

/** Reads and checks every setting; a bad value throws ConfigError naming the variable. */
export function loadFuelConfig(rawEnv: Env): FuelConfig {
  const env = scopedEnv(rawEnv, 'FUEL_');
  const dataDir = stringVar(env, 'DATA_DIR', './data');
  const config: FuelConfig = {
    port: portVar(env, 'PORT', 3000),
    host: stringVar(env, 'HOST', '127.0.0.1'),
    dataDir,
    database: parseDatabaseLocation(env, dataDir),
    logLevel: logLevelVar(env),
    validateResponses: boolVar(
      env,
      'VALIDATE_RESPONSES',
      env.NODE_ENV === 'development' || env.NODE_ENV === 'test',
    ),
    map: parseMapConfig(env),
    routing: {
      url: httpUrl(env, ['APP_ROUTING_URL', 'OSRM_URL']),
      routeTimeoutMs: 15_000,
      waypointRouteTimeoutMs: 10_000,
      detourTimeoutMs: 10_000,
      detourConcurrency: 8,
      maxInflight: intVar(env, 'ROUTING_MAX_INFLIGHT', 6, { min: 1, max: 1000 }),
      maxDetourStations: intVar(env, 'APP_MAX_DETOUR_STATIONS', 150, { min: 1, max: 150 }),
    },
    geocoder: { url: httpUrl(env, ['APP_GEOCODER_URL', 'PHOTON_URL']), timeoutMs: 5_000 },
    exchangeRates: {
      url: httpUrl(env, ['APP_EXCHANGE_RATES_URL']) ?? ECB_DAILY_URL,
      timeoutMs: 10_000,
      cacheMs: 24 * 60 * 60 * 1000,
    },
    rateLimits: { windowMs: 60_000, route: 30, routeStations: 30, routeDetour: 10 },
    scrapers: parseScraperConfig(env),
  };
  return Object.freeze(config);
}
