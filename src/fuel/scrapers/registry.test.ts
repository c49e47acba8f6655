import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../store/sqlite';
import { parseScraperConfig } from './config';
import { runScraper } from './pipeline';
import {
  allKeys,
  createScraper,
  createSharedState,
  EV_COUNTRIES,
  FUEL_KEYS,
  scheduledKeys,
} from './registry';
import { recordingLog } from './testing/context';
import { FIXTURES } from './testing/fake-feeds';

const DATASETS = { APP_STATIC_DATASETS_DIR: path.join(FIXTURES, 'datasets') };

describe('scraper keys', () => {
  it('lists fuel keys, charger keys, both registries, then static datasets', () => {
    const keys = allKeys(parseScraperConfig(DATASETS));
    expect(keys.slice(0, FUEL_KEYS.length)).toEqual([
      'ES',
      'FR',
      'PT',
      'IT',
      'AT',
      'DE',
      'GB',
      'DK',
      'AU',
      'AU_NSW',
    ]);
    expect(keys).toContain('EV_US');
    expect(keys.slice(-4)).toEqual([
      'EV_ES_REVE',
      'EV_DE_BNETZA',
      'STATIC_BROKEN_FILE',
      'STATIC_COMMUNITY_CHARGERS',
    ]);
    expect(allKeys(parseScraperConfig({})).some((key) => key.startsWith('STATIC_'))).toBe(false);
  });

  it('has a scraper, with its own source and country, for every key and none for others', () => {
    const config = parseScraperConfig(DATASETS);
    const shared = createSharedState(config);
    for (const key of allKeys(config)) {
      const scraper = createScraper(key, config, shared);
      expect(scraper?.key).toBe(key);
      expect(scraper?.timeoutMs).toBeGreaterThanOrEqual(10_000);
      expect(scraper?.timeoutMs).toBeLessThanOrEqual(300_000);
    }
    expect(createScraper('AU_NSW', config, shared)).toMatchObject({ source: 'nsw_fuelcheck', country: 'AU' });
    expect(createScraper('EV_FR', config, shared)).toMatchObject({ source: 'ocm', country: 'FR' });
    expect(createScraper('STATIC_COMMUNITY_CHARGERS', config, shared)).toMatchObject({ country: 'PT' });
    expect(createScraper('XX', config, shared)).toBeUndefined();
    expect(createScraper('EV_ZZ', config, shared)).toBeUndefined();
    expect(EV_COUNTRIES).toHaveLength(40);
  });

  describe('which keys the scheduler runs', () => {
    const keys = (env: Record<string, string>) => scheduledKeys(parseScraperConfig({ ...DATASETS, ...env }));

    it('every key when APP_ENABLED_COUNTRIES is unset, with one charger feed for Spain and Germany', () => {
      const all = keys({});
      expect(all).toContain('EV_ES');
      expect(all).not.toContain('EV_ES_REVE');
      expect(all).toContain('EV_DE_BNETZA');
      expect(all).not.toContain('EV_DE');
      expect(all).toContain('STATIC_COMMUNITY_CHARGERS');
    });

    it('listed keys, and for a plain code its chargers too', () => {
      expect(keys({ APP_ENABLED_COUNTRIES: 'PT,FR' })).toEqual(['FR', 'PT', 'EV_FR', 'EV_PT']);
      expect(keys({ APP_ENABLED_COUNTRIES: 'US' })).toEqual(['EV_US']);
      expect(keys({ APP_ENABLED_COUNTRIES: 'AU' })).toEqual(['AU', 'EV_AU']);
      expect(keys({ APP_ENABLED_COUNTRIES: 'AU,AU_NSW' })).toEqual(['AU', 'AU_NSW', 'EV_AU']);
      expect(keys({ APP_ENABLED_COUNTRIES: 'EV_FR' })).toEqual(['EV_FR']);
      expect(keys({ APP_ENABLED_COUNTRIES: 'ES,XX,UK' })).toEqual(['ES', 'EV_ES']);
      expect(keys({ APP_ENABLED_COUNTRIES: 'STATIC_COMMUNITY_CHARGERS' })).toEqual([
        'STATIC_COMMUNITY_CHARGERS',
      ]);
      expect(keys({ APP_ENABLED_COUNTRIES: 'XX' })).toEqual([]);
    });

    it('the registries replace the crowdsourced feeds of Spain and Germany, wherever listed', () => {
      expect(keys({ APP_ENABLED_COUNTRIES: 'DE' })).toEqual(['DE', 'EV_DE_BNETZA']);
      expect(keys({ APP_ENABLED_COUNTRIES: 'EV_DE,EV_DE_BNETZA', APP_DE_EV_SOURCE: 'ocm' })).toEqual([
        'EV_DE',
      ]);
      expect(keys({ APP_ENABLED_COUNTRIES: 'ES', APP_REVE_API_KEY: 'k' })).toEqual(['ES', 'EV_ES_REVE']);
      expect(keys({ APP_ENABLED_COUNTRIES: 'EV_ES_REVE' })).toEqual(['EV_ES']);
    });

    it('APP_EV_ENABLED=0 drops every charger key, listed or not', () => {
      expect(keys({ APP_ENABLED_COUNTRIES: 'ES,EV_FR', APP_EV_ENABLED: 'false' })).toEqual(['ES']);
    });
  });

  it('a static dataset runs through the same pipeline, price band included', async () => {
    const config = parseScraperConfig(DATASETS);
    const store = openSqliteStore(':memory:');
    try {
      const scraper = createScraper('STATIC_COMMUNITY_CHARGERS', config, createSharedState(config));
      const log = recordingLog();
      const summary = await runScraper(scraper as NonNullable<typeof scraper>, { store, log });
      expect(summary).toMatchObject({
        source: 'community_chargers',
        country: 'PT',
        stations: 2,
        prices: 1,
        errors: [],
      });
      expect(log.lines).toContain('[community_chargers] Filtered out 1 prices outside the price band');
      const broken = createScraper('STATIC_BROKEN_FILE', config, createSharedState(config));
      const failed = await runScraper(broken as NonNullable<typeof broken>, { store, log });
      expect(failed.errors[0]).toMatch(/^Fatal: Dataset broken_file is invalid/);
    } finally {
      await store.close();
    }
  });
});
