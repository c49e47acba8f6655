import type { Logger } from 'pino';
import type { components } from '../../../generated/fuel/types';
import type { MapConfig } from '../config';
import { countryName } from '../model/countries';
import { DatabaseFailure } from '../model/errors';
import type { FuelStore } from '../store/store';

export type StatsResponse = components['schemas']['StatsResponse'];
export type ConfigResponse = components['schemas']['ConfigResponse'];

/** The map settings; built from the configuration alone, so it answers while the database is down. */
export function mapConfigResponse(map: MapConfig): ConfigResponse {
  return {
    defaultCountry: map.defaultCountry,
    defaultFuel: map.defaultFuel,
    center: map.center,
    zoom: map.zoom,
    enabledCountries: map.enabledCountries.map(({ code, name, center, zoom, defaultFuel, fuels }) => ({
      code,
      name,
      center,
      zoom,
      defaultFuel,
      fuels,
    })),
  };
}

export async function databaseStats({
  store,
  log,
  map,
}: {
  store: FuelStore;
  log: Logger;
  map: MapConfig;
}): Promise<StatsResponse> {
  const stats = await store.stats().catch((error: unknown) => {
    log.error({ err: error }, 'Failed to query stats:');
    throw new DatabaseFailure(error);
  });
  return {
    totals: stats.totals,
    countries: stats.countries.map((c) => ({
      code: c.code,
      name: countryName(c.code),
      stations: c.stations,
      prices: c.prices,
      lastUpdate: c.lastUpdate?.toISOString() ?? null,
    })),
    config: {
      defaultCountry: map.defaultCountry,
      enabledCountries: map.enabledCodes,
      defaultFuel: map.defaultFuel,
      center: map.center,
      zoom: map.zoom,
    },
  };
}
