import { findPlaces } from '../../domain/places';
import type { FuelContext } from '../context';
import { CACHE, type FuelHandlers } from '../handler';

export function geocodingHandlers(ctx: FuelContext) {
  return {
    geocode: async (req, res) => {
      const places = await findPlaces(ctx, req.query);
      res.set('Cache-Control', CACHE.fiveMinutes).json(places);
    },
  } satisfies FuelHandlers;
}
