import { dailyPriceStats, stationPriceHistory } from '../../domain/history';
import { CACHE, type FuelHandlers } from '../handler';
import type { FuelWiring } from '../wiring';

export function historyHandlers(wiring: FuelWiring) {
  return {
    getStationPriceHistory: async (req, res) => {
      const body = await stationPriceHistory({ store: wiring.store }, { ...req.params, ...req.query });
      res.set('Cache-Control', CACHE.fiveMinutes).json(body);
    },
    getDailyPriceStats: async (req, res) => {
      const body = await dailyPriceStats({ store: wiring.store }, req.query);
      res.set('Cache-Control', CACHE.fiveMinutes).json(body);
    },
  } satisfies FuelHandlers;
}
