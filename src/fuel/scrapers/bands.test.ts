import { describe, expect, it } from 'vitest';
import { bandFor, isPlausiblePrice } from './bands';

// The seed's fixed bands, transcribed from its table (currency, min, max).
const FIXED_BANDS: [string, number, number][] = [
  ['HUF', 200, 2000],
  ['RON', 3, 30],
  ['RSD', 60, 600],
  ['TRY', 10, 400],
  ['PLN', 2, 20],
  ['CZK', 10, 150],
  ['BAM', 1, 10],
  ['MDL', 10, 100],
  ['SEK', 6, 60],
  ['ISK', 100, 700],
  ['TWD', 15, 80],
  ['BGN', 1, 10],
  ['NOK', 7, 70],
  ['DKK', 6, 60],
  ['MXN', 8, 100],
  ['ARS', 200, 20000],
  ['AUD', 0.5, 5.0],
  ['MKD', 30, 300],
];

describe('price band', () => {
  it.each(['EUR', 'HUF', 'XYZ'])('always rejects 0 and less (%s)', (currency) => {
    expect(isPlausiblePrice(0, 'B7', currency)).toBe(false);
    expect(isPlausiblePrice(-1.5, 'B7', currency)).toBe(false);
    expect(isPlausiblePrice(0, 'CNG', currency)).toBe(false);
    expect(isPlausiblePrice(Number.NaN, 'B7', currency)).toBe(false);
  });

  it.each(['H2', 'CNG', 'LNG', 'ADBLUE'])('%s: at least 0.05 and below 100, in any currency', (fuel) => {
    for (const currency of ['EUR', 'HUF', 'GBP', 'XYZ']) {
      expect(isPlausiblePrice(0.05, fuel, currency)).toBe(true);
      expect(isPlausiblePrice(0.049, fuel, currency)).toBe(false);
      expect(isPlausiblePrice(99.99, fuel, currency)).toBe(true);
      expect(isPlausiblePrice(100, fuel, currency)).toBe(false);
    }
  });

  it.each(['EUR', 'GBP', 'CHF'])('%s: 0.30 to 4.00 by default, both ends included', (currency) => {
    expect(isPlausiblePrice(0.3, 'E5', currency)).toBe(true);
    expect(isPlausiblePrice(0.299, 'E5', currency)).toBe(false);
    expect(isPlausiblePrice(4.0, 'E5', currency)).toBe(true);
    expect(isPlausiblePrice(4.001, 'E5', currency)).toBe(false);
  });

  it.each(['EUR', 'GBP', 'CHF'])('%s: APP_PRICE_MIN and APP_PRICE_MAX move the band', (currency) => {
    const limits = { priceMin: 1, priceMax: 5 };
    expect(isPlausiblePrice(0.9, 'B7', currency, limits)).toBe(false);
    expect(isPlausiblePrice(1, 'B7', currency, limits)).toBe(true);
    expect(isPlausiblePrice(4.5, 'B7', currency, limits)).toBe(true);
    expect(isPlausiblePrice(5.01, 'B7', currency, limits)).toBe(false);
  });

  it('the configured limits do not touch fixed bands', () => {
    expect(isPlausiblePrice(450, 'B7', 'HUF', { priceMin: 1, priceMax: 2 })).toBe(true);
  });

  it.each(FIXED_BANDS)('%s: %d to %d', (currency, min, max) => {
    expect(bandFor('B7', currency)).toMatchObject({ min, max });
    expect(isPlausiblePrice(min, 'B7', currency)).toBe(true);
    expect(isPlausiblePrice(max, 'B7', currency)).toBe(true);
    expect(isPlausiblePrice(min * 0.99, 'B7', currency)).toBe(false);
    expect(isPlausiblePrice(max * 1.01, 'B7', currency)).toBe(false);
  });

  it('a currency with no band: 0.1 to 100,000', () => {
    expect(isPlausiblePrice(0.1, 'E5', 'USD')).toBe(true);
    expect(isPlausiblePrice(0.09, 'E5', 'USD')).toBe(false);
    expect(isPlausiblePrice(100000, 'E5', 'USD')).toBe(true);
    expect(isPlausiblePrice(100001, 'E5', 'USD')).toBe(false);
  });
});
