import { checkDetourRequest, measureDetours } from '../../domain/detour';
import { planRoute as plan } from '../../domain/route';
import { CACHE, type FuelHandlers } from '../handler';
import type { FuelWiring } from '../wiring';

export function routingHandlers(wiring: FuelWiring) {
  return {
    planRoute: async (req, res) => {
      const { engine, config } = wiring;
      res.json(await plan({ engine, routing: config.routing }, req.body));
    },
    streamRouteDetours: async (req, res) => {
      const { engine, config, inflight } = wiring;
      checkDetourRequest(req.body);
      const left = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) left.abort(new Error('client disconnected'));
      });
      res.status(200).set({
        'Content-Type': 'application/x-ndjson',
        'Cache-Control': CACHE.stream,
        'X-Accel-Buffering': 'no',
      });
      res.flushHeaders();
      const emit = (line: object) => res.write(`${JSON.stringify(line)}\n`);
      const summary = await measureDetours(
        { engine, routing: config.routing, inflight },
        req.body,
        emit,
        left.signal,
      );
      req.log.info(summary, 'detour stream finished');
      res.end();
    },
  } satisfies FuelHandlers;
}
