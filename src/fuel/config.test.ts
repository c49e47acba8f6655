import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/env';
import { ECB_DAILY_URL, loadFuelConfig } from './config';

describe('loadFuelConfig', () => {
  it('defaults: Spain, its fuel, every country with map settings, SQLite under DATA_DIR', () => {
    const config = loadFuelConfig({});
    expect(config.map).toMatchObject({
      defaultCountry: 'ES',
      defaultFuel: 'B7',
      center: [-3.7038, 40.4168],
      zoom: 6,
    });
    expect(config.map.enabledCountries.length).toBeGreaterThan(20);
    expect(config.database).toEqual({ kind: 'sqlite', path: 'data/fuel.db' });
    expect(config.port).toBe(3000);
    expect(config.routing).toMatchObject({
      url: undefined,
      maxInflight: 6,
      maxDetourStations: 150,
      detourConcurrency: 8,
    });
    expect(config.routing.routeTimeoutMs).toBe(15_000);
    expect(config.routing.waypointRouteTimeoutMs).toBe(10_000);
    expect(config.geocoder).toEqual({ url: undefined, timeoutMs: 5_000 });
    expect(config.exchangeRates.url).toBe(ECB_DAILY_URL);
    expect(config.scrapers.priceMin).toBe(0.3);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('follows the country settings: default fuel of the default country, US enables EV only', () => {
    const config = loadFuelConfig({
      APP_DEFAULT_COUNTRY: 'fr',
      APP_ENABLED_COUNTRIES: 'FR, de,US,EV_FR,AU_NSW,fr',
    });
    expect(config.map).toMatchObject({ defaultCountry: 'FR', defaultFuel: 'E10', zoom: 6 });
    expect(config.map.enabledCodes).toEqual(['FR', 'DE', 'US']);
    expect(config.map.enabledCountries.map((c) => [c.code, c.name])).toEqual([
      ['FR', 'France'],
      ['DE', 'Deutschland'],
    ]);
    expect(loadFuelConfig({ APP_DEFAULT_FUEL: 'e5' }).map.defaultFuel).toBe('E5');
  });

  it('reads the upstream addresses under their names and aliases, and the FUEL_ prefix wins', () => {
    const config = loadFuelConfig({
      PHOTON_URL: 'http://photon.local:2322/',
      OSRM_URL: 'http://osrm.local:5000',
      DATABASE_URL: 'postgres://other/archive',
      FUEL_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/fuel',
      FUEL_PORT: '3100',
      ROUTING_MAX_INFLIGHT: '12',
      APP_MAX_DETOUR_STATIONS: '40',
    });
    expect(config.geocoder.url).toBe('http://photon.local:2322');
    expect(config.routing.url).toBe('http://osrm.local:5000');
    expect(config.routing.maxInflight).toBe(12);
    expect(config.routing.maxDetourStations).toBe(40);
    expect(config.database).toEqual({ kind: 'postgresql', url: 'postgres://postgres@127.0.0.1:5432/fuel' });
    expect(config.port).toBe(3100);
    expect(loadFuelConfig({ APP_GEOCODER_URL: 'http://a:1', PHOTON_URL: 'http://b:2' }).geocoder.url).toBe(
      'http://a:1',
    );
  });

  it.each([
    ['file:./tmp/fuel.db', { kind: 'sqlite', path: './tmp/fuel.db' }],
    ['file:///var/lib/fuel.db', { kind: 'sqlite', path: '/var/lib/fuel.db' }],
    ['file::memory:', { kind: 'sqlite', path: ':memory:' }],
    ['postgresql://u@h/db', { kind: 'postgresql', url: 'postgresql://u@h/db' }],
  ])('reads DATABASE_URL=%s', (value, expected) => {
    expect(loadFuelConfig({ DATABASE_URL: value }).database).toEqual(expected);
  });

  it('names a bad value by the variable the user set (FUEL_PORT, not PORT)', () => {
    expect(() => loadFuelConfig({ FUEL_PORT: 'eighty' })).toThrow(
      'FUEL_PORT must be a whole number from 0 to 65535, not "eighty"',
    );
    expect(() => loadFuelConfig({ PORT: '70000' })).toThrow('PORT must be a whole number from 0 to 65535');
    expect(() => loadFuelConfig({ FUEL_APP_EV_ENABLED: 'maybe' })).toThrow(/FUEL_APP_EV_ENABLED/);
  });

  it('puts the SQLite file under DATA_DIR', () => {
    expect(loadFuelConfig({ DATA_DIR: '/srv/data' }).database).toEqual({
      kind: 'sqlite',
      path: '/srv/data/fuel.db',
    });
  });

  it.each([
    [{ APP_DEFAULT_COUNTRY: 'XX' }, /APP_DEFAULT_COUNTRY/],
    [{ APP_DEFAULT_COUNTRY: 'US' }, /APP_DEFAULT_COUNTRY/],
    [{ APP_DEFAULT_FUEL: 'DIESEL' }, /APP_DEFAULT_FUEL must be one of B7/],
    [{ APP_ENABLED_COUNTRIES: 'ES,Spain' }, /APP_ENABLED_COUNTRIES/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be a postgres:\/\/ URL or file:<path>/],
    [{ DATABASE_URL: 'file:' }, /DATABASE_URL/],
    [{ APP_GEOCODER_URL: 'photon:2322' }, /APP_GEOCODER_URL must be an http or https URL/],
    [{ APP_ROUTING_URL: 'not a url' }, /APP_ROUTING_URL/],
    [{ ROUTING_MAX_INFLIGHT: '0' }, /ROUTING_MAX_INFLIGHT/],
    [{ APP_MAX_DETOUR_STATIONS: '151' }, /APP_MAX_DETOUR_STATIONS/],
    [{ FUEL_PORT: '70000' }, /PORT/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ APP_PRICE_MIN: '5' }, /APP_PRICE_MIN/],
  ])('refuses %o with a clear message', (env, message) => {
    expect(() => loadFuelConfig(env as Record<string, string>)).toThrow(ConfigError);
    expect(() => loadFuelConfig(env as Record<string, string>)).toThrow(message);
  });
});
