import { existsSync } from 'node:fs';
import path from 'node:path';
import { type FakeFeeds, type FakeHandler, FIXTURES, fixture, json } from './fake-feeds';

/** Paths the fake server answers on, one folder per feed (the real hosts differ; the paths mirror them). */
export const FEED_PATHS = {
  ES: '/es/ServiciosRESTCarburantes/PreciosCarburantes/EstacionesTerrestres/',
  FR: '/fr/api/explore/v2.1/catalog/datasets/prix-des-carburants-en-france-flux-instantane-v2/exports/json',
  PT: '/pt/api/PrecoComb/PesquisarPostos',
  IT: '/it/images/exportCSV',
  AT: '/at/sprit/1.0',
  DE: '/de/api/v4',
  DK: '/dk/api',
  DK_FALLBACK: '/dk-fallback/stations/fuel/nearby',
  AU: '/au/fuelwatch/fuelWatchRSS',
  AU_NSW: '/au-nsw',
  OCM: '/ocm/v3',
  EV_ES_REVE: '/reve/api/external/v1',
  EV_DE_BNETZA: '/bnetza/Ladesaeulenregister.csv',
} as const;

export const GB_PATHS = ['/gb/asda/fuel_prices_data.json', '/gb/tesco/fuel_prices_data.json'];

/** The environment that points every feed at the fake server. */
export function feedEnv(baseUrl: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [feed, feedPath] of Object.entries(FEED_PATHS))
    env[`APP_FEED_URL_${feed}`] = `${baseUrl}${feedPath}`;
  env.APP_FEED_URL_GB = GB_PATHS.map((gbPath) => `${baseUrl}${gbPath}`).join(',');
  return env;
}

/** Portugal's search: one fixture per fuel id, paged by `pagina` and `qtdPorPagina`. */
export const portugalHandler: FakeHandler = ({ query }) => {
  const file = `pt-postos-${query.get('idsTiposComb')}.json`;
  if (!existsSync(path.join(FIXTURES, file)))
    return json({ status: true, mensagem: 'sucesso', resultado: [] });
  const answer = JSON.parse(fixture(file).toString('utf8')) as { resultado: unknown[] };
  const size = Number(query.get('qtdPorPagina') ?? 500);
  const page = Number(query.get('pagina') ?? 1);
  return json({ ...answer, resultado: answer.resultado.slice((page - 1) * size, page * size) });
};

/** Austria's "near this point" search: the same fixture for every point, one per fuel type. */
export const austriaHandler: FakeHandler = ({ query }) => {
  const file = `at-by-address-${query.get('fuelType')}.json`;
  if (!existsSync(path.join(FIXTURES, file))) return json([]);
  return { body: fixture(file), headers: { 'content-type': 'application/json' } };
};

/** The German circle search: the same fixture for every circle, but only with an API key. */
export const germanyHandler: FakeHandler = ({ query }) => {
  if (!query.get('apikey')) return { status: 401, body: '{"ok":false}' };
  return { body: fixture('de-stations-search.json'), headers: { 'content-type': 'application/json' } };
};

/** The Danish feed: the fixture for the key `dk-test-key`, 401 for any other. */
export const denmarkHandler: FakeHandler = ({ headers }) =>
  headers['x-api-key'] === 'dk-test-key'
    ? { body: fixture('dk-stations-all.json'), headers: { 'content-type': 'application/json' } }
    : { status: 401, body: '{"detail":"Invalid API key"}' };

/** Western Australia: one RSS feed per product; products without a fixture answer an empty channel. */
export const fuelWatchHandler: FakeHandler = ({ query }) => {
  const file = `au-fuelwatch-product-${query.get('Product')}.xml`;
  const body = existsSync(path.join(FIXTURES, file))
    ? fixture(file)
    : '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>FuelWatch</title></channel></rss>';
  return { body, headers: { 'content-type': 'text/xml; charset=UTF-8' } };
};

export const NSW_CREDENTIALS = { key: 'nsw-test-key', secret: 'nsw-test-secret' };

/** New South Wales: a token for the right key and secret, then prices for that token. */
export function installNswRoutes(fake: FakeFeeds, base: string = FEED_PATHS.AU_NSW): void {
  const basic = `Basic ${Buffer.from(`${NSW_CREDENTIALS.key}:${NSW_CREDENTIALS.secret}`).toString('base64')}`;
  fake.route(`${base}/oauth/client_credential/accesstoken`, ({ headers, query }) =>
    headers.authorization === basic && query.get('grant_type') === 'client_credentials'
      ? { body: fixture('au-nsw-accesstoken.json'), headers: { 'content-type': 'application/json' } }
      : { status: 401, body: '{"ErrorCode":"invalid_client"}' },
  );
  fake.route(`${base}/FuelPriceCheck/v1/fuel/prices`, ({ headers }) =>
    headers.authorization === 'Bearer nsw-access-token-1' && headers.apikey === NSW_CREDENTIALS.key
      ? { body: fixture('au-nsw-fuel-prices.json'), headers: { 'content-type': 'application/json' } }
      : { status: 401, body: '{}' },
  );
}

export const OCM_KEY = 'ocm-test-key';

interface FakePoi {
  ID: number;
  StatusTypeID?: number;
  AddressInfo: { Latitude: number; Longitude: number; Country: { ISOCode: string } };
}

/**
 * The crowdsourced registry's point search over a list of points: filtered by country, operational status
 * and bounding box, cut at `maxresults` without saying so (as the real one does), and keyed.
 */
export function ocmHandler(
  pois: FakePoi[] = JSON.parse(fixture('ocm-poi.json').toString('utf8')),
  options: { synthesize?: boolean } = {},
): FakeHandler {
  return ({ query, headers }) => {
    const country = query.get('countrycode') ?? '';
    // A charger for any country the list does not cover, so a run over every country finds something.
    if (options.synthesize && !pois.some((poi) => poi.AddressInfo.Country.ISOCode === country)) {
      pois.push({
        ID: 700000 + pois.length,
        StatusTypeID: 50,
        AddressInfo: { Latitude: 10 + pois.length / 100, Longitude: 10, Country: { ISOCode: country } },
      });
    }
    if (headers['x-api-key'] !== OCM_KEY) return { status: 403, body: 'Forbidden' };
    if (query.get('compact') !== 'false')
      return { status: 400, body: 'compact answers carry no operator names' };
    let matches = pois.filter(
      (poi) =>
        poi.AddressInfo.Country.ISOCode === query.get('countrycode') &&
        (query.get('statustypeid') === null || String(poi.StatusTypeID) === query.get('statustypeid')),
    );
    const box = query.get('boundingbox');
    if (box) {
      const [a, b, c, d] = (box.match(/-?\d+(\.\d+)?/g) ?? []).map(Number) as [
        number,
        number,
        number,
        number,
      ];
      const [minLat, maxLat, minLon, maxLon] = [
        Math.min(a, c),
        Math.max(a, c),
        Math.min(b, d),
        Math.max(b, d),
      ];
      matches = matches.filter(
        ({ AddressInfo: { Latitude: lat, Longitude: lon } }) =>
          lat >= minLat && lat <= maxLat && lon >= minLon && lon <= maxLon,
      );
    }
    return json(matches.slice(0, Number(query.get('maxresults') ?? 100)));
  };
}

export const REVE_KEY = 'reve-test-key';

/**
 * The Spanish registry's paged locations. `perPage` pages the fixture more finely than the real 100 so
 * paging shows with six locations; after `allowance` requests it answers 429 without Retry-After.
 */
export function reveHandler(options: { perPage?: number; allowance?: number } = {}): FakeHandler {
  const locations = JSON.parse(fixture('reve-locations.json').toString('utf8')) as unknown[];
  const perPage = options.perPage ?? 100;
  let served = 0;
  return ({ query, headers }) => {
    if (headers['x-api-key'] !== REVE_KEY) return { status: 401, body: '{"message":"Unauthorized"}' };
    if (++served > (options.allowance ?? Number.POSITIVE_INFINITY))
      return { status: 429, body: 'Too Many Requests' };
    const page = Number(query.get('page') ?? 1);
    return json(locations.slice((page - 1) * perPage, page * perPage), {
      'total-count': String(locations.length),
      'total-pages': String(Math.ceil(locations.length / perPage)),
    });
  };
}

/** Every feed of the registry on one fake server, answering from the fixtures (see `feedEnv`). */
export function installFeedRoutes(fake: FakeFeeds): void {
  fake.route(FEED_PATHS.ES, { body: fixture('es-estaciones-terrestres.json') });
  fake.route(FEED_PATHS.FR, { body: fixture('fr-prix-carburants.json') });
  fake.route(FEED_PATHS.PT, portugalHandler);
  fake.route(`${FEED_PATHS.IT}/anagrafica_impianti_attivi.csv`, {
    body: fixture('it-anagrafica_impianti_attivi.csv'),
  });
  fake.route(`${FEED_PATHS.IT}/prezzo_alle_8.csv`, { body: fixture('it-prezzo_alle_8.csv') });
  fake.route(`${FEED_PATHS.AT}/search/gas-stations/by-address`, austriaHandler);
  fake.route(`${FEED_PATHS.DE}/stations/search`, germanyHandler);
  fake.route(`${FEED_PATHS.DK}/v1/stations/all`, denmarkHandler);
  fake.route(FEED_PATHS.AU, fuelWatchHandler);
  installNswRoutes(fake);
  fake.route(`${FEED_PATHS.OCM}/poi/`, ocmHandler(undefined, { synthesize: true }));
  fake.route(`${FEED_PATHS.EV_ES_REVE}/locations`, reveHandler());
  fake.route(FEED_PATHS.EV_DE_BNETZA, { body: fixture('bnetza-ladesaeulenregister.csv') });
  const [asda, tesco] = GB_PATHS as [string, string];
  fake.route(asda, { body: fixture('gb-asda-fuel_prices_data.json') });
  fake.route(tesco, { body: fixture('gb-tesco-fuel_prices_data.json') });
}

/** Keys and secrets the fake feeds accept, so every keyed feed can run. */
export const FEED_KEYS_ENV: Record<string, string> = {
  APP_OCM_API_KEY: OCM_KEY,
  APP_REVE_API_KEY: REVE_KEY,
  APP_DE_FUEL_API_KEY: 'de-test-key',
  APP_DK_FUEL_API_KEY: 'dk-test-key',
  APP_AU_NSW_API_KEY: NSW_CREDENTIALS.key,
  APP_AU_NSW_API_SECRET: NSW_CREDENTIALS.secret,
};
