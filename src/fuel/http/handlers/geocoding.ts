import { geocode as searchPlaces } from '../../upstreams/geocode';
import type { FuelContext } from '../context';
import { CACHE, type FuelHandlers } from '../handler';

export function geocodingHandlers(ctx: FuelContext) {
  return {
    geocode: async (req, res) => {
      const { config, fetchImpl } = ctx;
      const places = await searchPlaces({ geocoder: config.geocoder, fetchImpl }, req.query);
      res.set('Cache-Control', CACHE.fiveMinutes).json(places);
    },
  } satisfies FuelHandlers;
}
