/** What every case file of the fuel store suite shares: the store under test and the inputs it writes. */
import type { CaseSkips } from '../../../common/testing/cases';
import type { FuelStore, LonLat, PriceInput, StationInput } from '../store';

/** The store of the running case: a new, empty, migrated one for each, opened by store.cases.ts. */
export interface StoreUnderTest {
  store: FuelStore;
}

/** One case of the suite, skipped on a backend by the suite's skip list. */
export type CaseIt = (name: string, test: () => Promise<void>) => void;
export type { CaseSkips };

export function station(
  externalId: string,
  [lon, lat]: LonLat,
  overrides: Partial<StationInput> = {},
): StationInput {
  return {
    externalId,
    country: 'ES',
    type: 'fuel',
    name: `Station ${externalId}`,
    brand: 'Repsol',
    address: `Calle ${externalId}`,
    city: 'Madrid',
    lon,
    lat,
    source: 'miteco',
    ...overrides,
  };
}

export function price(
  externalId: string,
  fuel: string,
  value: number,
  overrides: Partial<PriceInput> = {},
): PriceInput {
  return { externalId, country: 'ES', fuel, price: value, currency: 'EUR', ...overrides };
}

export const MADRID: LonLat = [-3.7038, 40.4168];
export const at = (iso: string) => new Date(iso);
