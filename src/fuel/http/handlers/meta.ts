import { databaseStats, mapConfigResponse } from '../../domain/stats';
import type { FuelContext } from '../context';
import { CACHE, type FuelHandlers } from '../handler';

export function metaHandlers(ctx: FuelContext) {
  return {
    getConfig: (_req, res) => {
      res.set('Cache-Control', CACHE.config).json(mapConfigResponse(ctx.config.map));
    },
    getStats: async (req, res) => {
      const { store, config } = ctx;
      const body = await databaseStats({ store, log: req.log, map: config.map });
      res.set('Cache-Control', CACHE.fiveMinutes).json(body);
    },
  } satisfies FuelHandlers;
}
