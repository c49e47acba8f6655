import { boolVar, ConfigError, type Env, intVar, numberVar, stringVar } from '../../common/env';

/** The feeds whose address can be changed with `APP_FEED_URL_<NAME>` (tests point them at 127.0.0.1). */
export const FEED_URL_DEFAULTS = {
  ES: 'https://sedeaplicaciones.minetur.gob.es/ServiciosRESTCarburantes/PreciosCarburantes/EstacionesTerrestres/',
  FR: 'https://data.economie.gouv.fr/api/explore/v2.1/catalog/datasets/prix-des-carburants-en-france-flux-instantane-v2/exports/json',
  PT: 'https://precoscombustiveis.dgeg.gov.pt/api/PrecoComb/PesquisarPostos',
  IT: 'https://www.mimit.gov.it/images/exportCSV',
  AT: 'https://api.e-control.at/sprit/1.0',
  DE: 'https://creativecommons.tankerkoenig.de/api/v4',
  DK: 'https://fuelprices.dk/api',
  DK_FALLBACK: 'https://backend.drivstoffapp.no/stations/fuel/nearby',
  AU: 'https://www.fuelwatch.wa.gov.au/fuelwatch/fuelWatchRSS',
  AU_NSW: 'https://api.onegov.nsw.gov.au',
  OCM: 'https://api.openchargemap.io/v3',
  EV_ES_REVE: 'https://www.mapareve.es/api/external/v1',
  EV_DE_BNETZA:
    'https://data.bundesnetzagentur.de/Bundesnetzagentur/SharedDocs/Downloads/DE/Sachgebiete/Energie/Unternehmen_Institutionen/E_Mobilitaet/Ladesaeulenregister.csv',
} as const;

export type FeedName = keyof typeof FEED_URL_DEFAULTS;

/** The retailers' own JSON feeds of the United Kingdom's open fuel-price scheme (`APP_FEED_URL_GB`). */
export const GB_FEED_DEFAULTS = [
  'https://storelocator.asda.com/fuel_prices_data.json',
  'https://www.bp.com/en_gb/united-kingdom/home/fuelprices/fuel_prices_data.json',
  'https://fuelprices.esso.co.uk/latestdata.json',
  'https://www.tesco.com/fuel_prices/fuel_prices_data.json',
  'https://www.morrisons.com/fuel-prices/fuel.json',
  'https://api.sainsburys.co.uk/v1/exports/latest/fuel_prices_data.json',
  'https://fuel.motorfuelgroup.com/fuel_prices_data.json',
  'https://www.sgnretail.uk/files/data/SGN_daily_fuel_prices.json',
  'https://jetlocal.co.uk/fuel_prices_data.json',
  'https://moto-way.com/fuel-price/fuel_prices.json',
  'https://www.rontec-servicestations.co.uk/fuel-prices/data/fuel_prices_data.json',
  'https://fuelprices.asconagroup.co.uk/newfuel.json',
  'https://devapi.krlpos.com/integration/live_price/krl',
];

/** Which registry feeds Germany's chargers: the official register (default) or the crowdsourced one. */
export type GermanEvSource = 'registry' | 'ocm';

export interface OcmSettings {
  apiKey: string | undefined;
  /** Requests per country per run (`APP_OCM_MAX_REQUESTS`, default 800). */
  maxRequests: number;
  /** Requests in flight at once across every country (`APP_OCM_MAX_CONCURRENCY`, default 1). */
  maxConcurrency: number;
  /** Pause before each tile request (`APP_OCM_TILE_DELAY_MS`, default 600). */
  tileDelayMs: number;
  /** Active request time per country per run: 15 minutes. */
  timeBudgetMs: number;
  /** Results per answer: 5,000. */
  maxResults: number;
  /** Tiles narrower than this are not split further (degrees). */
  minTileDeg: number;
  /** Wider boxes are split whenever they return anything, since the registry under-reports them. */
  trustSpanDeg: number;
}

export interface ScraperConfig {
  /** `APP_SCRAPE_INTERVAL_HOURS`: one interval for every key; 0 disables all; undefined when unset. */
  intervalHours: number | undefined;
  /** `APP_SCRAPE_INTERVAL_<KEY>`: one key's interval in hours; 0 disables that key. */
  keyIntervals: Readonly<Record<string, number>>;
  /** `APP_EV_ENABLED` (default true): false turns off every `EV_` key. */
  evEnabled: boolean;
  /** `APP_ENABLED_COUNTRIES` as upper-case entries; null when unset (every key runs). */
  enabledCountries: readonly string[] | null;
  priceMin: number;
  priceMax: number;
  /**
   * `APP_PRICE_HISTORY_DAYS` (default 90): price changes older than this are pruned after each run; 0 turns
   * the history off (nothing recorded, what was recorded deleted).
   */
  priceHistoryDays: number;
  /** German fuel feed key (`APP_DE_FUEL_API_KEY`); without it that feed fails every run. */
  deFuelApiKey: string | undefined;
  /** Danish fuel feed key (`APP_DK_FUEL_API_KEY`). */
  dkFuelApiKey: string | undefined;
  /** New South Wales feed key and secret (`APP_AU_NSW_API_KEY`, `APP_AU_NSW_API_SECRET`). */
  auNswApiKey: string | undefined;
  auNswApiSecret: string | undefined;
  /** Spanish charger registry key (`APP_REVE_API_KEY`); when set, `EV_ES_REVE` runs instead of `EV_ES`. */
  reveApiKey: string | undefined;
  /** `APP_REVE_CUTOVER_RATIO` (default 0.95). */
  reveCutoverRatio: number;
  /** `APP_REVE_PAGES_PER_RUN` (default 4, at most 5: the registry allows 5 requests an hour). */
  revePagesPerRun: number;
  /** `APP_DE_EV_SOURCE`: `ocm` selects the crowdsourced registry for Germany. */
  deEvSource: GermanEvSource;
  /** `APP_BNETZA_MIN_STATIONS` (default 10,000). */
  bnetzaMinStations: number;
  ocm: OcmSettings;
  feedUrls: Readonly<Record<FeedName, string>>;
  gbFeedUrls: readonly string[];
  /** `APP_STATIC_DATASETS_DIR`: where `STATIC_<SOURCE>` datasets are read; default the committed folder. */
  staticDatasetsDir: string | undefined;
}

const INTERVAL_PREFIX = 'APP_SCRAPE_INTERVAL_';
const FEED_URL_PREFIX = 'APP_FEED_URL_';
/** Node timers hold at most 2^31-1 ms; longer intervals are possible through bree, but a year is plenty. */
const MAX_INTERVAL_HOURS = 8760;
const KEY_PATTERN = /^[A-Z0-9]+(?:_[A-Z0-9]+)*$/;

function hours(name: string, raw: string): number {
  const value = Number(raw.trim());
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > MAX_INTERVAL_HOURS) {
    throw new ConfigError(`${name} must be a number of hours from 0 to ${MAX_INTERVAL_HOURS}, not "${raw}"`);
  }
  return value;
}

function url(name: string, raw: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    throw new ConfigError(`${name} must be an http or https URL, not "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http or https URL, not "${raw}"`);
  }
  return parsed.toString();
}

function parseKeyIntervals(env: Env): Record<string, number> {
  const intervals: Record<string, number> = {};
  for (const [name, raw] of Object.entries(env)) {
    // An empty value counts as unset, as everywhere else in the settings.
    if (!name.startsWith(INTERVAL_PREFIX) || name === `${INTERVAL_PREFIX}HOURS` || !raw?.trim()) continue;
    const key = name.slice(INTERVAL_PREFIX.length);
    if (!KEY_PATTERN.test(key)) {
      throw new ConfigError(
        `${name} does not name a scraper key (use upper case, e.g. ${INTERVAL_PREFIX}EV_FR)`,
      );
    }
    intervals[key] = hours(name, raw);
  }
  return intervals;
}

function parseFeedUrls(env: Env): { feedUrls: Record<FeedName, string>; gbFeedUrls: string[] } {
  const feedUrls = { ...FEED_URL_DEFAULTS } as Record<FeedName, string>;
  for (const feed of Object.keys(FEED_URL_DEFAULTS) as FeedName[]) {
    const raw = stringVar(env, `${FEED_URL_PREFIX}${feed}`);
    if (raw !== undefined) feedUrls[feed] = url(`${FEED_URL_PREFIX}${feed}`, raw);
  }
  const gbRaw = stringVar(env, `${FEED_URL_PREFIX}GB`);
  const gbFeedUrls =
    gbRaw === undefined
      ? [...GB_FEED_DEFAULTS]
      : gbRaw
          .split(',')
          .filter((part) => part.trim() !== '')
          .map((part) => url(`${FEED_URL_PREFIX}GB`, part));
  for (const name of Object.keys(env)) {
    if (!name.startsWith(FEED_URL_PREFIX)) continue;
    const feed = name.slice(FEED_URL_PREFIX.length);
    if (feed !== 'GB' && !(feed in FEED_URL_DEFAULTS)) {
      const known = ['GB', ...Object.keys(FEED_URL_DEFAULTS)].join(', ');
      throw new ConfigError(`${name} names no feed (known: ${known})`);
    }
  }
  return { feedUrls, gbFeedUrls };
}

function parseEnabledCountries(env: Env): string[] | null {
  const raw = stringVar(env, 'APP_ENABLED_COUNTRIES');
  if (raw === undefined) return null;
  return raw
    .split(',')
    .map((entry) => entry.trim().toUpperCase())
    .filter((entry) => entry !== '');
}

function parseGermanEvSource(env: Env): GermanEvSource {
  const raw = stringVar(env, 'APP_DE_EV_SOURCE');
  if (raw === undefined) return 'registry';
  const word = raw.toLowerCase();
  if (word === 'ocm') return 'ocm';
  if (word === 'bnetza' || word === 'registry') return 'registry';
  throw new ConfigError(`APP_DE_EV_SOURCE must be "ocm" or "bnetza", not "${raw}"`);
}

/** Reads every scraper and scheduler setting once; a bad value throws ConfigError naming the variable. */
export function parseScraperConfig(env: Env): ScraperConfig {
  const globalRaw = stringVar(env, `${INTERVAL_PREFIX}HOURS`);
  const priceMin = numberVar(env, 'APP_PRICE_MIN', 0.3, { min: 0 });
  const priceMax = numberVar(env, 'APP_PRICE_MAX', 4.0, { min: 0 });
  if (priceMin >= priceMax) {
    throw new ConfigError(`APP_PRICE_MIN (${priceMin}) must be below APP_PRICE_MAX (${priceMax})`);
  }
  const reveCutoverRatio = numberVar(env, 'APP_REVE_CUTOVER_RATIO', 0.95, { min: 0, max: 1 });
  if (reveCutoverRatio <= 0) {
    throw new ConfigError(`APP_REVE_CUTOVER_RATIO must be above 0 and at most 1, not "${reveCutoverRatio}"`);
  }
  const auNswApiKey = stringVar(env, 'APP_AU_NSW_API_KEY');
  const auNswApiSecret = stringVar(env, 'APP_AU_NSW_API_SECRET');
  const config: ScraperConfig = {
    intervalHours: globalRaw === undefined ? undefined : hours(`${INTERVAL_PREFIX}HOURS`, globalRaw),
    keyIntervals: Object.freeze(parseKeyIntervals(env)),
    evEnabled: boolVar(env, 'APP_EV_ENABLED', true),
    enabledCountries: parseEnabledCountries(env),
    priceMin,
    priceMax,
    priceHistoryDays: intVar(env, 'APP_PRICE_HISTORY_DAYS', 90, { min: 0, max: 3650 }),
    deFuelApiKey: stringVar(env, 'APP_DE_FUEL_API_KEY'),
    dkFuelApiKey: stringVar(env, 'APP_DK_FUEL_API_KEY'),
    auNswApiKey,
    auNswApiSecret,
    reveApiKey: stringVar(env, 'APP_REVE_API_KEY'),
    reveCutoverRatio,
    revePagesPerRun: intVar(env, 'APP_REVE_PAGES_PER_RUN', 4, { min: 1, max: 5 }),
    deEvSource: parseGermanEvSource(env),
    bnetzaMinStations: intVar(env, 'APP_BNETZA_MIN_STATIONS', 10000, { min: 1 }),
    ocm: {
      apiKey: stringVar(env, 'APP_OCM_API_KEY'),
      maxRequests: intVar(env, 'APP_OCM_MAX_REQUESTS', 800, { min: 1, max: 100000 }),
      maxConcurrency: intVar(env, 'APP_OCM_MAX_CONCURRENCY', 1, { min: 1, max: 16 }),
      tileDelayMs: intVar(env, 'APP_OCM_TILE_DELAY_MS', 600, { min: 0, max: 60000 }),
      timeBudgetMs: 15 * 60 * 1000,
      maxResults: 5000,
      minTileDeg: 0.05,
      trustSpanDeg: 2,
    },
    ...parseFeedUrls(env),
    staticDatasetsDir: stringVar(env, 'APP_STATIC_DATASETS_DIR'),
  };
  return Object.freeze(config);
}
