import type { operations } from '../../../generated/fuel/types';
import type { OperationHandler } from '../../common/http/operations';

export type Handler<K extends keyof operations> = OperationHandler<operations[K]>;

export const CACHE = {
  config: 'public, s-maxage=3600, stale-while-revalidate=7200',
  fiveMinutes: 'public, s-maxage=300, stale-while-revalidate=600',
  oneMinute: 'public, s-maxage=60, stale-while-revalidate=300',
  exchangeRates: 'public, s-maxage=3600, stale-while-revalidate=86400',
  staleExchangeRates: 'public, s-maxage=60',
  stream: 'no-cache, no-transform',
} as const;
