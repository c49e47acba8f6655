import { findPlaces } from '../../domain/places';
import { CACHE, type FuelHandlers } from '../handler';
import type { FuelWiring } from '../wiring';

export function geocodingHandlers(wiring: FuelWiring) {
  return {
    geocode: async (req, res) => {
      const places = await findPlaces(wiring, req.query);
      res.set('Cache-Control', CACHE.fiveMinutes).json(places);
    },
  } satisfies FuelHandlers;
}
