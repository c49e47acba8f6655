import { contextOf } from '../context';
import { CACHE, type Handler } from '../handler';

export const getExchangeRates: Handler<'getExchangeRates'> = async (req, res) => {
  const { body, stale } = await contextOf(req).rates.get();
  res.set('Cache-Control', stale ? CACHE.staleExchangeRates : CACHE.exchangeRates).json(body);
};
