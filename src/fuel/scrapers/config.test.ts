import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../common/env';
import { FEED_URL_DEFAULTS, GB_FEED_DEFAULTS, parseScraperConfig } from './config';
import { defaultIntervalHours, intervalHours } from './registry';

describe('scraper settings', () => {
  it('has the documented defaults', () => {
    const config = parseScraperConfig({});
    expect(config).toMatchObject({
      intervalHours: undefined,
      keyIntervals: {},
      evEnabled: true,
      enabledCountries: null,
      priceMin: 0.3,
      priceMax: 4,
      reveCutoverRatio: 0.95,
      revePagesPerRun: 4,
      deEvSource: 'registry',
      bnetzaMinStations: 10000,
      ocm: {
        apiKey: undefined,
        maxRequests: 800,
        maxConcurrency: 1,
        tileDelayMs: 600,
        timeBudgetMs: 900000,
        maxResults: 5000,
      },
      feedUrls: FEED_URL_DEFAULTS,
      gbFeedUrls: GB_FEED_DEFAULTS,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads intervals, countries, keys and feed addresses', () => {
    const config = parseScraperConfig({
      APP_SCRAPE_INTERVAL_HOURS: '6',
      APP_SCRAPE_INTERVAL_FR: '0.5',
      APP_SCRAPE_INTERVAL_EV_ES_REVE: '1',
      APP_SCRAPE_INTERVAL_NO: '0',
      APP_EV_ENABLED: '0',
      APP_ENABLED_COUNTRIES: ' es, fr ,,US',
      APP_PRICE_MIN: '0.5',
      APP_PRICE_MAX: '5',
      APP_OCM_API_KEY: 'o',
      APP_OCM_MAX_REQUESTS: '50',
      APP_OCM_MAX_CONCURRENCY: '2',
      APP_OCM_TILE_DELAY_MS: '0',
      APP_REVE_API_KEY: 'r',
      APP_REVE_CUTOVER_RATIO: '0.9',
      APP_DE_EV_SOURCE: 'OCM',
      APP_BNETZA_MIN_STATIONS: '500',
      APP_FEED_URL_ES: 'http://127.0.0.1:9999/es',
      APP_FEED_URL_GB: 'http://127.0.0.1:1/a.json, http://127.0.0.1:1/b.json',
    });
    expect(config).toMatchObject({
      intervalHours: 6,
      keyIntervals: { FR: 0.5, EV_ES_REVE: 1, NO: 0 },
      evEnabled: false,
      enabledCountries: ['ES', 'FR', 'US'],
      priceMin: 0.5,
      priceMax: 5,
      reveApiKey: 'r',
      reveCutoverRatio: 0.9,
      deEvSource: 'ocm',
      bnetzaMinStations: 500,
      ocm: { apiKey: 'o', maxRequests: 50, maxConcurrency: 2, tileDelayMs: 0 },
      gbFeedUrls: ['http://127.0.0.1:1/a.json', 'http://127.0.0.1:1/b.json'],
    });
    expect(config.feedUrls.ES).toBe('http://127.0.0.1:9999/es');
    expect(config.feedUrls.FR).toBe(FEED_URL_DEFAULTS.FR);
  });

  it('resolves a key interval: its own variable, then the global one, then its default (1 to 24 h)', () => {
    const global = parseScraperConfig({ APP_SCRAPE_INTERVAL_HOURS: '6', APP_SCRAPE_INTERVAL_FR: '0.5' });
    expect(intervalHours('FR', global)).toBe(0.5);
    expect(intervalHours('ES', global)).toBe(6);
    expect(intervalHours('EV_ES_REVE', global)).toBe(6);
    const defaults = parseScraperConfig({});
    const expected: Record<string, number> = {
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
      EV_FR: 24,
      EV_US: 24,
      EV_ES_REVE: 1,
      EV_DE_BNETZA: 24,
      STATIC_X: 12,
    };
    for (const [key, hours] of Object.entries(expected)) {
      expect(intervalHours(key, defaults)).toBe(hours);
      expect(defaultIntervalHours(key)).toBeGreaterThanOrEqual(1);
      expect(defaultIntervalHours(key)).toBeLessThanOrEqual(24);
    }
    expect(parseScraperConfig({ APP_SCRAPE_INTERVAL_FR: ' ' }).keyIntervals).toEqual({});
    const off = parseScraperConfig({ APP_SCRAPE_INTERVAL_HOURS: '0', APP_SCRAPE_INTERVAL_FR: '2' });
    expect(intervalHours('FR', off)).toBe(0);
  });

  it('keeps 90 days of price history by default; 0 turns it off', () => {
    expect(parseScraperConfig({}).priceHistoryDays).toBe(90);
    expect(parseScraperConfig({ APP_PRICE_HISTORY_DAYS: '0' }).priceHistoryDays).toBe(0);
  });

  it.each<[Record<string, string>, string]>([
    [
      { APP_SCRAPE_INTERVAL_HOURS: 'daily' },
      'APP_SCRAPE_INTERVAL_HOURS must be a number of hours from 0 to 8760, not "daily"',
    ],
    [
      { APP_SCRAPE_INTERVAL_FR: '-1' },
      'APP_SCRAPE_INTERVAL_FR must be a number of hours from 0 to 8760, not "-1"',
    ],
    [{ APP_SCRAPE_INTERVAL_ev_fr: '1' }, 'APP_SCRAPE_INTERVAL_ev_fr does not name a scraper key'],
    [{ APP_EV_ENABLED: 'maybe' }, 'Invalid boolean value for APP_EV_ENABLED'],
    [{ APP_PRICE_MIN: 'cheap' }, 'APP_PRICE_MIN must be a number'],
    [{ APP_PRICE_MIN: '5' }, 'APP_PRICE_MIN (5) must be below APP_PRICE_MAX (4)'],
    [{ APP_REVE_CUTOVER_RATIO: '1.5' }, 'APP_REVE_CUTOVER_RATIO must be a number from 0 to 1'],
    [{ APP_REVE_CUTOVER_RATIO: '0' }, 'APP_REVE_CUTOVER_RATIO must be above 0 and at most 1'],
    [{ APP_REVE_PAGES_PER_RUN: '6' }, 'APP_REVE_PAGES_PER_RUN must be a whole number from 1 to 5'],
    [{ APP_DE_EV_SOURCE: 'tesla' }, 'APP_DE_EV_SOURCE must be "ocm" or "bnetza", not "tesla"'],
    [{ APP_BNETZA_MIN_STATIONS: '0' }, 'APP_BNETZA_MIN_STATIONS must be a whole number from 1'],
    [{ APP_OCM_MAX_REQUESTS: '1e3' }, 'APP_OCM_MAX_REQUESTS must be a whole number'],
    [{ APP_OCM_MAX_CONCURRENCY: '0' }, 'APP_OCM_MAX_CONCURRENCY must be a whole number from 1 to 16'],
    [{ APP_OCM_TILE_DELAY_MS: '-5' }, 'APP_OCM_TILE_DELAY_MS must be a whole number from 0'],
    [{ APP_FEED_URL_ES: 'ftp://x' }, 'APP_FEED_URL_ES must be an http or https URL, not "ftp://x"'],
    [{ APP_FEED_URL_GB: 'http://a/x.json,nope' }, 'APP_FEED_URL_GB must be an http or https URL, not "nope"'],
    [{ APP_FEED_URL_XX: 'http://a' }, 'APP_FEED_URL_XX names no feed'],
    [{ APP_PRICE_HISTORY_DAYS: '-1' }, 'APP_PRICE_HISTORY_DAYS must be a whole number from 0 to 3650'],
  ])('rejects %o with a clear message', (env, text) => {
    expect(() => parseScraperConfig(env)).toThrow(ConfigError);
    expect(() => parseScraperConfig(env)).toThrow(text);
  });
});
