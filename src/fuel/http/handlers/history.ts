import { dailyPriceStats, stationPriceHistory } from '../../domain/history';
import { contextOf } from '../context';
import { CACHE, type Handler } from '../handler';

export const getStationPriceHistory: Handler<'getStationPriceHistory'> = async (req, res) => {
  const body = await stationPriceHistory({ store: contextOf(req).store }, { ...req.params, ...req.query });
  res.set('Cache-Control', CACHE.fiveMinutes).json(body);
};

export const getDailyPriceStats: Handler<'getDailyPriceStats'> = async (req, res) => {
  const body = await dailyPriceStats({ store: contextOf(req).store }, req.query);
  res.set('Cache-Control', CACHE.fiveMinutes).json(body);
};
