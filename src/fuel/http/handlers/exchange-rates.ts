import type { FuelContext } from '../context';
import { CACHE, type FuelHandlers } from '../handler';

export function exchangeRatesHandlers(ctx: FuelContext) {
  return {
    getExchangeRates: async (_req, res) => {
      const { body, stale } = await ctx.rates.get();
      res.set('Cache-Control', stale ? CACHE.staleExchangeRates : CACHE.exchangeRates).json(body);
    },
  } satisfies FuelHandlers;
}
