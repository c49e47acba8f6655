/** The plausible range of a price, both ends inclusive unless `maxExclusive`. */
export interface PriceBand {
  min: number;
  max: number;
  maxExclusive?: boolean;
}

/** Gases and fluids are priced per kg or per litre in any currency, so they share one wide band. */
const SPECIAL_FUELS = new Set(['H2', 'CNG', 'LNG', 'ADBLUE']);
const SPECIAL_BAND: PriceBand = { min: 0.05, max: 100, maxExclusive: true };

/** Currencies whose band is `APP_PRICE_MIN` to `APP_PRICE_MAX`. */
const CONFIGURED_CURRENCIES = new Set(['EUR', 'GBP', 'CHF']);

export const CURRENCY_BANDS: Readonly<Record<string, PriceBand>> = {
  HUF: { min: 200, max: 2000 },
  RON: { min: 3, max: 30 },
  RSD: { min: 60, max: 600 },
  TRY: { min: 10, max: 400 },
  PLN: { min: 2, max: 20 },
  CZK: { min: 10, max: 150 },
  BAM: { min: 1, max: 10 },
  MDL: { min: 10, max: 100 },
  SEK: { min: 6, max: 60 },
  ISK: { min: 100, max: 700 },
  TWD: { min: 15, max: 80 },
  BGN: { min: 1, max: 10 },
  NOK: { min: 7, max: 70 },
  DKK: { min: 6, max: 60 },
  MXN: { min: 8, max: 100 },
  ARS: { min: 200, max: 20000 },
  AUD: { min: 0.5, max: 5.0 },
  MKD: { min: 30, max: 300 },
};

const FALLBACK_BAND: PriceBand = { min: 0.1, max: 100000 };

export interface BandLimits {
  /** `APP_PRICE_MIN`, default 0.30. */
  priceMin: number;
  /** `APP_PRICE_MAX`, default 4.00. */
  priceMax: number;
}

export const DEFAULT_BAND_LIMITS: BandLimits = { priceMin: 0.3, priceMax: 4.0 };

export function bandFor(fuel: string, currency: string, limits: BandLimits = DEFAULT_BAND_LIMITS): PriceBand {
  if (SPECIAL_FUELS.has(fuel)) return SPECIAL_BAND;
  if (CONFIGURED_CURRENCIES.has(currency)) return { min: limits.priceMin, max: limits.priceMax };
  return CURRENCY_BANDS[currency] ?? FALLBACK_BAND;
}

/** A price is stored only when it is above 0 and inside its band. */
export function isPlausiblePrice(
  price: number,
  fuel: string,
  currency: string,
  limits: BandLimits = DEFAULT_BAND_LIMITS,
): boolean {
  if (!Number.isFinite(price) || price <= 0) return false;
  const band = bandFor(fuel, currency, limits);
  return price >= band.min && (band.maxExclusive ? price < band.max : price <= band.max);
}
