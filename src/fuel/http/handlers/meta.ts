import { databaseStats, mapConfigResponse } from '../../domain/stats';
import { contextOf } from '../context';
import { CACHE, type Handler } from '../handler';

export const getConfig: Handler<'getConfig'> = (req, res) => {
  res.set('Cache-Control', CACHE.config).json(mapConfigResponse(contextOf(req).config.map));
};

export const getStats: Handler<'getStats'> = async (req, res) => {
  const { store, config } = contextOf(req);
  const body = await databaseStats({ store, log: req.log, map: config.map });
  res.set('Cache-Control', CACHE.fiveMinutes).json(body);
};
