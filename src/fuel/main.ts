/**
 * Composition root of the fuel service: config → logger → store (migrated) → app → listen → scraper
 * scheduler (the scrapers run inside the server process; a failing feed never takes the server down).
 */
import { type Env, scopedEnv } from '../common/env';
import { createLogger, type Logger } from '../common/logger';
import { startMetrics } from '../common/metrics';
import { listen } from '../common/serve';
import { type FuelConfig, loadFuelConfig } from './config';
import { createFuelApp } from './http/app';
import { startScheduler } from './jobs/scheduler';
import { keyCountry, scheduledKeys } from './scrapers/registry';
import { describeLocation, openFuelStore } from './store/open';
import type { FuelStore } from './store/store';

export interface RunningFuel {
  url: string;
  config: FuelConfig;
  logger: Logger;
  /** The open store, for whatever runs beside the server in the same process (the scraper scheduler). */
  store: FuelStore;
  /** The metrics listener's address when METRICS_PORT is set. */
  metricsUrl?: string;
  close(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  /** First-run demo mode: no scraper is scheduled (they need the network); the demo data stands in. */
  scrapers?: boolean;
}

/**
 * The entries of `APP_ENABLED_COUNTRIES` that enable nothing: no map entry (codes without map settings are
 * dropped, as the seed says) and no scheduled feed of theirs. A typo such as `ZZ` is said at start.
 */
export function unusedCountryEntries(config: FuelConfig): string[] {
  const listed = config.scrapers.enabledCountries ?? [];
  const keys = scheduledKeys(config.scrapers);
  return listed.filter(
    (entry) =>
      !config.map.enabledCountries.some((c) => c.code === entry) &&
      !keys.some((key) => key === entry || keyCountry(key) === entry),
  );
}

export async function start(env: Env = process.env, options: StartOptions = {}): Promise<RunningFuel> {
  const config = loadFuelConfig(env);
  const logger = options.logger ?? createLogger('fuel', config.logLevel);
  const store = await openFuelStore(config.database);
  try {
    const { app } = createFuelApp({ config, store, logger });
    const server = await listen(app, config.port, config.host);
    logger.info({ url: server.url, database: describeLocation(config.database) }, 'fuel listening');
    const unused = unusedCountryEntries(config);
    if (unused.length > 0)
      logger.warn(
        { entries: unused },
        'APP_ENABLED_COUNTRIES names entries with no map settings and no feed',
      );
    const scheduler =
      options.scrapers === false
        ? { stop: async () => {} }
        : await startScheduler({ config: config.scrapers, store, logger, database: config.database });
    const metrics = await startMetrics(scopedEnv(env, 'FUEL_'), config.host);
    if (metrics) logger.info({ url: metrics.url }, 'fuel metrics listening');
    return {
      url: server.url,
      config,
      logger,
      store,
      ...(metrics ? { metricsUrl: metrics.url } : {}),
      async close() {
        // Stop accepting and finish the requests in flight while the current scrape finishes its
        // transaction (the scheduler asks it to stop between steps), then close the database.
        await Promise.all([scheduler.stop(), server.close()]);
        await metrics?.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
