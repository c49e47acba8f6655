import { geocode as searchPlaces } from '../../upstreams/geocode';
import { contextOf } from '../context';
import { CACHE, type Handler } from '../handler';

export const geocode: Handler<'geocode'> = async (req, res) => {
  const { config, fetchImpl } = contextOf(req);
  const places = await searchPlaces({ geocoder: config.geocoder, fetchImpl }, req.query);
  res.set('Cache-Control', CACHE.fiveMinutes).json(places);
};
