import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FuelCode } from '../model/fuels';
import { inListOrder } from '../model/fuels';
import type { ScraperConfig } from './config';
import { NSW_FUELS, newSouthWalesScraper, WA_PRODUCTS, westernAustraliaScraper } from './feeds/australia';
import { AUSTRIA_FUELS, austriaScraper } from './feeds/austria';
import { bnetzaScraper } from './feeds/bnetza';
import { DANISH_PRODUCTS, denmarkScraper } from './feeds/denmark';
import { FRANCE_FUELS, franceScraper } from './feeds/france';
import { CATEGORY_FUELS, germanyScraper, NAMED_FUELS } from './feeds/germany';
import { ITALY_FUELS, italyScraper } from './feeds/italy';
import { OcmGate, ocmScraper } from './feeds/ocm';
import { PORTUGAL_FUELS, portugalScraper } from './feeds/portugal';
import { HourlyAllowance, reveScraper } from './feeds/reve';
import { SPAIN_FUELS, spainScraper } from './feeds/spain';
import { DEFAULT_DATASETS_DIR, listDatasets, staticScraper } from './feeds/static';
import { UK_FUELS, ukScraper } from './feeds/uk';
import type { Scraper } from './types';

/** Fuel-price keys, in scheduling order. */
export const FUEL_KEYS = ['ES', 'FR', 'PT', 'IT', 'AT', 'DE', 'GB', 'DK', 'AU', 'AU_NSW'] as const;

/** Countries with a crowdsourced charger key `EV_<CC>`; `US` has chargers only. */
export const EV_COUNTRIES = [
  'ES',
  'FR',
  'PT',
  'IT',
  'AT',
  'DE',
  'GB',
  'DK',
  'AU',
  'SI',
  'NL',
  'BE',
  'LU',
  'RO',
  'GR',
  'IE',
  'HR',
  'CH',
  'PL',
  'CZ',
  'HU',
  'BG',
  'SK',
  'SE',
  'NO',
  'RS',
  'FI',
  'EE',
  'LV',
  'LT',
  'BA',
  'MK',
  'TR',
  'MD',
  'IS',
  'CY',
  'TW',
  'AR',
  'MX',
  'US',
] as const;

export const SPANISH_REGISTRY = 'EV_ES_REVE';
export const GERMAN_REGISTRY = 'EV_DE_BNETZA';

/** The fuel codes each fuel-price key can store, from the feed's own mapping. */
export const KEY_FUELS: Readonly<Record<(typeof FUEL_KEYS)[number], readonly FuelCode[]>> = {
  ES: Object.values(SPAIN_FUELS),
  FR: Object.values(FRANCE_FUELS),
  PT: Object.values(PORTUGAL_FUELS),
  IT: ITALY_FUELS,
  AT: Object.values(AUSTRIA_FUELS),
  DE: [...Object.values(NAMED_FUELS), ...Object.values(CATEGORY_FUELS)],
  GB: Object.values(UK_FUELS),
  DK: Object.values(DANISH_PRODUCTS),
  AU: Object.values(WA_PRODUCTS),
  AU_NSW: Object.values(NSW_FUELS),
};

/** The key's country: `EV_ES_REVE` and `AU_NSW` belong to ES and AU. */
export const keyCountry = (key: string): string =>
  key.startsWith('EV_') ? key.slice(3, 5) : key.slice(0, 2);

/**
 * The codes a country's scheduled feeds can store, in the document's order: its fuel keys' codes, and
 * `EV` when a charger key of the country is scheduled. Static datasets are not counted.
 */
export function countryFuels(country: string, config: ScraperConfig): FuelCode[] {
  const codes: FuelCode[] = [];
  for (const key of scheduledKeys(config)) {
    if (key.startsWith('STATIC_') || keyCountry(key) !== country) continue;
    if (key.startsWith('EV_')) codes.push('EV');
    else codes.push(...(KEY_FUELS[key as (typeof FUEL_KEYS)[number]] ?? []));
  }
  return inListOrder(codes);
}

/** Hours between runs when neither `APP_SCRAPE_INTERVAL_<KEY>` nor `APP_SCRAPE_INTERVAL_HOURS` is set. */
const DEFAULT_INTERVALS: Record<string, number> = {
  ES: 12,
  FR: 1,
  PT: 12,
  IT: 12,
  AT: 2,
  DE: 1,
  GB: 4,
  DK: 6,
  AU: 12,
  AU_NSW: 12,
  [SPANISH_REGISTRY]: 1,
  [GERMAN_REGISTRY]: 24,
};

export function defaultIntervalHours(key: string): number {
  return DEFAULT_INTERVALS[key] ?? (key.startsWith('EV_') ? 24 : 12);
}

/** Hours between runs of a key: its own variable, else the global one, else its default; 0 = disabled. */
export function intervalHours(key: string, config: ScraperConfig): number {
  if (config.intervalHours === 0) return 0;
  return config.keyIntervals[key] ?? config.intervalHours ?? defaultIntervalHours(key);
}

export const datasetsDir = (config: ScraperConfig) =>
  path.resolve(config.staticDatasetsDir ?? DEFAULT_DATASETS_DIR);

/** Every key there is: fuel keys, charger keys, the two registries, then the static datasets. */
export function allKeys(config: ScraperConfig): string[] {
  return [
    ...FUEL_KEYS,
    ...EV_COUNTRIES.map((cc) => `EV_${cc}`),
    SPANISH_REGISTRY,
    GERMAN_REGISTRY,
    ...listDatasets(datasetsDir(config)).map((name) => `STATIC_${name.toUpperCase()}`),
  ];
}

/**
 * Spain and Germany each keep one charger source, since the two sources of each overlap: Spain's registry
 * when its key is set, Germany's registry unless `APP_DE_EV_SOURCE=ocm`.
 */
export function chooseChargerSources(keys: string[], config: ScraperConfig): string[] {
  const spain = config.reveApiKey ? SPANISH_REGISTRY : 'EV_ES';
  const germany = config.deEvSource === 'ocm' ? 'EV_DE' : GERMAN_REGISTRY;
  const out: string[] = [];
  for (const key of keys) {
    const chosen =
      key === 'EV_ES' || key === SPANISH_REGISTRY
        ? spain
        : key === 'EV_DE' || key === GERMAN_REGISTRY
          ? germany
          : key;
    if (!out.includes(chosen)) out.push(chosen);
  }
  return out;
}

/** The keys the scheduler runs, in order, before intervals are applied. */
export function scheduledKeys(config: ScraperConfig): string[] {
  const known = allKeys(config);
  let keys = known;
  if (config.enabledCountries !== null) {
    const wanted = new Set<string>();
    for (const entry of config.enabledCountries) {
      wanted.add(entry);
      // A plain country code brings its chargers along (`US` has nothing else).
      if (!entry.startsWith('EV_') && !entry.startsWith('STATIC_')) wanted.add(`EV_${entry}`);
    }
    keys = known.filter((key) => wanted.has(key));
  }
  if (!config.evEnabled) keys = keys.filter((key) => !key.startsWith('EV_'));
  return chooseChargerSources(keys, config);
}

/** Keys the command line tool accepts: every key but the static datasets. */
export function commandLineKeys(config: ScraperConfig): string[] {
  return allKeys(config).filter((key) => !key.startsWith('STATIC_'));
}

export interface ScraperTuning {
  /** Per-request time limit of every feed (tests shorten it). */
  timeoutMs?: number;
  /** Distance between query points of the grid feeds (AT, DE). */
  gridStepKm?: number;
  /** Limit of a grid feed's whole fetch step (AT, DE; 5 minutes). */
  runLimitMs?: number;
}

/** State shared by the scrapers of one process: the registries' rate limits are per client, not per run. */
export interface SharedFeedState {
  ocmGate: OcmGate;
  reveAllowance: HourlyAllowance;
}

export const createSharedState = (config: ScraperConfig): SharedFeedState => ({
  ocmGate: new OcmGate(config.ocm.maxConcurrency, config.ocm.tileDelayMs),
  reveAllowance: new HourlyAllowance(),
});

function datasetCountry(file: string): string {
  try {
    const country = (JSON.parse(readFileSync(file, 'utf8')) as { country?: unknown }).country;
    return typeof country === 'string' ? country : '--';
  } catch {
    return '--';
  }
}

/** The scraper of one key; undefined for a key that does not exist. */
export function createScraper(
  key: string,
  config: ScraperConfig,
  shared: SharedFeedState,
  tuning: ScraperTuning = {},
): Scraper | undefined {
  const urls = config.feedUrls;
  const t = tuning.timeoutMs;
  const grid = {
    ...(tuning.gridStepKm === undefined ? {} : { gridStepKm: tuning.gridStepKm }),
    ...(tuning.runLimitMs === undefined ? {} : { runLimitMs: tuning.runLimitMs }),
  };
  switch (key) {
    case 'ES':
      return spainScraper(urls.ES, t);
    case 'FR':
      return franceScraper(urls.FR, t);
    case 'PT':
      return portugalScraper(urls.PT, t === undefined ? {} : { timeoutMs: t });
    case 'IT':
      return italyScraper(urls.IT, t);
    case 'AT':
      return austriaScraper(urls.AT, { ...grid, ...(t === undefined ? {} : { timeoutMs: t }) });
    case 'DE':
      return germanyScraper(urls.DE, {
        apiKey: config.deFuelApiKey,
        ...grid,
        ...(t === undefined ? {} : { timeoutMs: t }),
      });
    case 'GB':
      return ukScraper(config.gbFeedUrls, t);
    case 'DK':
      return denmarkScraper(urls.DK, {
        apiKey: config.dkFuelApiKey,
        fallbackUrl: urls.DK_FALLBACK,
        ...(t === undefined ? {} : { timeoutMs: t }),
      });
    case 'AU':
      return westernAustraliaScraper(urls.AU, t);
    case 'AU_NSW':
      return newSouthWalesScraper(urls.AU_NSW, {
        apiKey: config.auNswApiKey,
        apiSecret: config.auNswApiSecret,
        ...(t === undefined ? {} : { timeoutMs: t }),
      });
    case SPANISH_REGISTRY:
      return reveScraper({
        baseUrl: urls.EV_ES_REVE,
        apiKey: config.reveApiKey,
        pagesPerRun: config.revePagesPerRun,
        cutoverRatio: config.reveCutoverRatio,
        allowance: shared.reveAllowance,
        ...(t === undefined ? {} : { timeoutMs: t }),
      });
    case GERMAN_REGISTRY:
      return bnetzaScraper({
        url: urls.EV_DE_BNETZA,
        minStations: config.bnetzaMinStations,
        ...(t === undefined ? {} : { timeoutMs: t }),
      });
  }
  const charger = key.match(/^EV_([A-Z]{2})$/)?.[1];
  if (charger && (EV_COUNTRIES as readonly string[]).includes(charger)) {
    return ocmScraper(charger, {
      baseUrl: urls.OCM,
      settings: config.ocm,
      gate: shared.ocmGate,
      ...(t === undefined ? {} : { timeoutMs: t }),
    });
  }
  if (key.startsWith('STATIC_')) {
    const dir = datasetsDir(config);
    const name = listDatasets(dir).find((dataset) => `STATIC_${dataset.toUpperCase()}` === key);
    if (name) return staticScraper(dir, name, datasetCountry(path.join(dir, `${name}.json`)));
  }
  return undefined;
}
