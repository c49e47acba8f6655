import { databaseStats, mapConfigResponse } from '../../domain/stats';
import { CACHE, type FuelHandlers } from '../handler';
import type { FuelWiring } from '../wiring';

export function metaHandlers(wiring: FuelWiring) {
  return {
    getConfig: (_req, res) => {
      res.set('Cache-Control', CACHE.config).json(mapConfigResponse(wiring.config.map));
    },
    getStats: async (req, res) => {
      const { store, config } = wiring;
      const body = await databaseStats({ store, log: req.log, map: config.map });
      res.set('Cache-Control', CACHE.fiveMinutes).json(body);
    },
  } satisfies FuelHandlers;
}
