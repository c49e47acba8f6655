import { listStationsInBox, nearestStations, routeStations } from '../../domain/stations';
import { contextOf } from '../context';
import { CACHE, type Handler, sendJsonPieces } from '../handler';

export const listStations: Handler<'listStations'> = async (req, res) => {
  const { body, truncated } = await listStationsInBox(
    { store: contextOf(req).store, log: req.log },
    req.query,
  );
  if (truncated) res.set('X-Result-Truncated', 'true');
  res.set('Cache-Control', CACHE.oneMinute);
  await sendJsonPieces(res, body);
};

export const listNearestStations: Handler<'listNearestStations'> = async (req, res) => {
  const body = await nearestStations({ store: contextOf(req).store, log: req.log }, req.query);
  res.set('Cache-Control', CACHE.oneMinute).json(body);
};

export const listRouteStations: Handler<'listRouteStations'> = async (req, res) => {
  await sendJsonPieces(res, await routeStations({ store: contextOf(req).store, log: req.log }, req.body));
};
