import { listStationsInBox, nearestStations, routeStations } from '../../domain/stations';
import { CACHE, type FuelHandlers, sendJsonPieces } from '../handler';
import type { FuelWiring } from '../wiring';

export function stationsHandlers(wiring: FuelWiring) {
  return {
    listStations: async (req, res) => {
      const { body, truncated } = await listStationsInBox({ store: wiring.store, log: req.log }, req.query);
      if (truncated) res.set('X-Result-Truncated', 'true');
      res.set('Cache-Control', CACHE.oneMinute);
      await sendJsonPieces(res, body);
    },
    listNearestStations: async (req, res) => {
      const body = await nearestStations({ store: wiring.store, log: req.log }, req.query);
      res.set('Cache-Control', CACHE.oneMinute).json(body);
    },
    listRouteStations: async (req, res) => {
      await sendJsonPieces(res, await routeStations({ store: wiring.store, log: req.log }, req.body));
    },
  } satisfies FuelHandlers;
}
