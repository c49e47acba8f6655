import { listStationsInBox, nearestStations, routeStations } from '../../domain/stations';
import { stationTile, stillCurrent } from '../../domain/tiles';
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
    getStationTile: async (req, res) => {
      const { z, x, y } = req.params;
      const tile = await stationTile(wiring.store, { z, x, y, fuel: req.query.fuel }, wiring.tiles);
      res.set('Cache-Control', CACHE.oneMinute).set('ETag', tile.etag);
      if (stillCurrent(req.get('If-None-Match'), tile.etag)) {
        res.status(304).end();
        return;
      }
      // The tile's bytes as they are: `send` would take them for a JSON body of the typed answers.
      res.type('application/vnd.mapbox-vector-tile').set('Content-Length', String(tile.bytes.length));
      res.end(Buffer.from(tile.bytes.buffer, tile.bytes.byteOffset, tile.bytes.byteLength));
    },
    listRouteStations: async (req, res) => {
      await sendJsonPieces(res, await routeStations({ store: wiring.store, log: req.log }, req.body));
    },
  } satisfies FuelHandlers;
}
