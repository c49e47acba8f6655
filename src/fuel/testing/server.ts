/**
 * The real fuel app on 127.0.0.1 port 0 with a real store, the fake upstreams and captured log lines: what
 * the HTTP tests and the live contract suite run against.
 */
import { createLogger } from '../../common/logger';
import { listen } from '../../common/serve';
import { type FuelConfig, loadFuelConfig } from '../config';
import { demoDataset, seedDemo } from '../demo/dataset';
import { createFuelApp } from '../http/app';
import { openSqliteStore } from '../store/sqlite';
import type { FuelStore } from '../store/store';
import { type FakeEcb, startFakeEcb } from './fakes/ecb';
import { type FakeOsrm, startFakeOsrm } from './fakes/osrm';
import { type FakePhoton, startFakePhoton } from './fakes/photon';

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface TestFuel {
  url: string;
  store: FuelStore;
  config: FuelConfig;
  osrm: FakeOsrm;
  photon: FakePhoton;
  ecb: FakeEcb;
  logs: LogLine[];
  /** Moves the clock of the rate limits and the rate cache. */
  advance(ms: number): void;
  close(): Promise<void>;
}

export interface TestFuelOptions {
  /** Extra environment (APP_… variables) on top of the fake upstream addresses. */
  env?: Record<string, string>;
  /** Changes to the loaded configuration (shorter timeouts, no upstream address, …). */
  configure?: (config: FuelConfig) => FuelConfig;
  /** The store to serve; default a seeded SQLite store in memory. */
  store?: FuelStore;
  /** Seed the demo dataset (default true when no store is given). */
  seed?: boolean;
  /** Where the built web page is (default `web/dist`). */
  webDist?: string;
}

/** The blank map style the built page carries (`web/fuel/public/`): page tests never reach a tile server. */
export const BLANK_STYLE = './static/blank-style.json';

/** Timeouts short enough that a test of the "no answer" case takes well under a second. */
export const TEST_TIMEOUT_MS = 600;

export async function startTestFuel(options: TestFuelOptions = {}): Promise<TestFuel> {
  const [osrm, photon, ecb] = await Promise.all([startFakeOsrm(), startFakePhoton(), startFakeEcb()]);
  const loaded = loadFuelConfig({
    NODE_ENV: 'test',
    VALIDATE_RESPONSES: 'true',
    APP_ENABLED_COUNTRIES: 'ES,PT,US',
    APP_ROUTING_URL: osrm.url,
    APP_GEOCODER_URL: photon.url,
    APP_EXCHANGE_RATES_URL: ecb.url,
    ...options.env,
  });
  const shortened: FuelConfig = {
    ...loaded,
    routing: {
      ...loaded.routing,
      routeTimeoutMs: TEST_TIMEOUT_MS,
      waypointRouteTimeoutMs: TEST_TIMEOUT_MS,
      detourTimeoutMs: TEST_TIMEOUT_MS,
    },
    geocoder: { ...loaded.geocoder, timeoutMs: TEST_TIMEOUT_MS },
    exchangeRates: { ...loaded.exchangeRates, timeoutMs: TEST_TIMEOUT_MS },
  };
  const config = options.configure ? options.configure(shortened) : shortened;
  const store = options.store ?? openSqliteStore(':memory:');
  if (options.seed ?? !options.store) await seedDemo(store, demoDataset());
  const logs: LogLine[] = [];
  const logger = createLogger('fuel', 'info', {
    write: (line: string) => {
      logs.push(JSON.parse(line) as LogLine);
    },
  });
  let offset = 0;
  const { app } = createFuelApp({
    config,
    store,
    logger,
    now: () => Date.now() + offset,
    ...(options.webDist !== undefined && { webDist: options.webDist }),
  });
  const server = await listen(app, 0);
  return {
    url: server.url,
    store,
    config,
    osrm,
    photon,
    ecb,
    logs,
    advance: (ms) => {
      offset += ms;
    },
    async close() {
      await server.close();
      await Promise.all([osrm.close(), photon.close(), ecb.close()]);
      await store.close();
    },
  };
}
