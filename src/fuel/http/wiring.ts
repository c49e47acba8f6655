import type { FuelConfig } from '../config';
import type { Semaphore } from '../domain/semaphore';
import type { TileCache } from '../domain/tiles';
import type { FuelStore } from '../store/store';
import type { ExchangeRates } from '../upstreams/exchange-rates';
import type { OsrmClient } from '../upstreams/osrm';

/** The fuel server's wiring: what the handlers work with, built once by createFuelApp and given to each handlers module. */
export interface FuelWiring {
  config: FuelConfig;
  store: FuelStore;
  engine: OsrmClient;
  /** Routing engine calls in flight for detours, across every request. */
  inflight: Semaphore;
  rates: ExchangeRates;
  fetchImpl: typeof fetch;
  /** The map tiles answered last (domain/tiles.ts). */
  tiles: TileCache;
  /** The folder of the built web pages (undefined: `web/dist`). */
  webDist: string | undefined;
}
