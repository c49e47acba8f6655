import { describe, expect, it } from 'vitest';
import { FuelCodeLabels } from '../../../generated/fuel/labels';
import { parseScraperConfig } from '../scrapers/config';
import { countryFuels, FUEL_KEYS, KEY_FUELS } from '../scrapers/registry';
import { FUEL_CODES, FUEL_DESCRIPTIONS, inListOrder, isFuelCode } from './fuels';

describe('the fuel code list (OpenAPI FuelCode)', () => {
  it('holds the seed’s eight codes and describes every code it lists', () => {
    expect(FUEL_CODES).toEqual(
      expect.arrayContaining(['B7', 'E5', 'E10', 'EV', 'H2', 'CNG', 'LNG', 'ADBLUE']),
    );
    expect(Object.keys(FUEL_DESCRIPTIONS).sort()).toEqual([...FUEL_CODES].sort());
    for (const code of FUEL_CODES) expect(FUEL_DESCRIPTIONS[code]?.length, code).toBeGreaterThan(10);
    expect(isFuelCode('HVO')).toBe(true);
    expect(isFuelCode('hvo')).toBe(false);
    expect(isFuelCode('DIESEL')).toBe(false);
  });

  it("names every code it lists, in its order, for the page's list of fuels", () => {
    expect(Object.keys(FuelCodeLabels)).toEqual([...FUEL_CODES]);
    for (const code of FUEL_CODES) expect(FuelCodeLabels[code]?.trim(), code).toBeTruthy();
    expect(new Set(Object.values(FuelCodeLabels)).size).toBe(FUEL_CODES.length);
  });

  it('covers every code a feed maps to', () => {
    for (const key of FUEL_KEYS) {
      expect(KEY_FUELS[key].length, key).toBeGreaterThan(0);
      for (const code of KEY_FUELS[key]) expect(isFuelCode(code), `${key}: ${code}`).toBe(true);
    }
  });

  it('gives each country the codes of its scheduled feeds, in list order, EV with its chargers', () => {
    const all = parseScraperConfig({});
    expect(countryFuels('PT', all)).toEqual([
      'B7',
      'B7_PREMIUM',
      'E5',
      'E5_PREMIUM',
      'E5_98',
      'LPG',
      'CNG',
      'EV',
    ]);
    expect(countryFuels('ES', all)).toEqual(expect.arrayContaining(['E5_RENEWABLE', 'HVO', 'BIO_CNG', 'EV']));
    expect(countryFuels('AU', all)).toEqual(inListOrder([...KEY_FUELS.AU, ...KEY_FUELS.AU_NSW, 'EV']));
    expect(countryFuels('NL', all)).toEqual(['EV']);
    expect(countryFuels('PT', parseScraperConfig({ APP_EV_ENABLED: '0' }))).not.toContain('EV');
    expect(countryFuels('FR', parseScraperConfig({ APP_ENABLED_COUNTRIES: 'ES' }))).toEqual([]);
  });
});
