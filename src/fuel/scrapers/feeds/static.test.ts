import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext } from '../testing/context';
import { FIXTURES } from '../testing/fake-feeds';
import { DEFAULT_DATASETS_DIR, listDatasets, parseDataset, staticScraper } from './static';

const DIR = path.join(FIXTURES, 'datasets');

describe('static datasets (STATIC_<SOURCE>)', () => {
  it('lists one dataset per JSON file; the committed folder ships none', () => {
    expect(listDatasets(DIR)).toEqual(['broken_file', 'community_chargers']);
    expect(listDatasets(DEFAULT_DATASETS_DIR)).toEqual([]);
    expect(listDatasets(path.join(DIR, 'absent'))).toEqual([]);
  });

  it('reads stations and prices through the same shapes as a live feed', async () => {
    const scraper = staticScraper(DIR, 'community_chargers', 'PT');
    expect(scraper).toMatchObject({
      key: 'STATIC_COMMUNITY_CHARGERS',
      source: 'community_chargers',
      country: 'PT',
    });
    const { stations, prices } = await scraper.fetch(testContext());
    expect(stations[0]).toMatchObject({ externalId: 'cc-001', type: 'ev_charger', powerKw: 22, brand: null });
    expect(prices).toEqual([
      { externalId: 'cc-002', fuel: 'B7', price: 1.619, currency: 'EUR' },
      { externalId: 'cc-002', fuel: 'E5', price: 7.5, currency: 'EUR' },
    ]);
  });

  it('rejects an invalid dataset with the problems found', async () => {
    await expect(staticScraper(DIR, 'broken_file', 'PT').fetch(testContext())).rejects.toThrow(
      /Dataset broken_file is invalid: .*\/country must match pattern/,
    );
    expect(() => parseDataset({ country: 'PT' }, 'x')).toThrow("must have required property 'stations'");
  });
});
