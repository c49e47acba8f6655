import { dailyPriceStats, stationPriceHistory } from '../../domain/history';
import type { FuelContext } from '../context';
import { CACHE, type FuelHandlers } from '../handler';

export function historyHandlers(ctx: FuelContext) {
  return {
    getStationPriceHistory: async (req, res) => {
      const body = await stationPriceHistory({ store: ctx.store }, { ...req.params, ...req.query });
      res.set('Cache-Control', CACHE.fiveMinutes).json(body);
    },
    getDailyPriceStats: async (req, res) => {
      const body = await dailyPriceStats({ store: ctx.store }, req.query);
      res.set('Cache-Control', CACHE.fiveMinutes).json(body);
    },
  } satisfies FuelHandlers;
}
