import { CACHE, type FuelHandlers } from '../handler';
import type { FuelWiring } from '../wiring';

export function exchangeRatesHandlers(wiring: FuelWiring) {
  return {
    getExchangeRates: async (_req, res) => {
      const { body, stale } = await wiring.rates.get();
      res.set('Cache-Control', stale ? CACHE.staleExchangeRates : CACHE.exchangeRates).json(body);
    },
  } satisfies FuelHandlers;
}
