import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FuelCode } from '../model/fuels';
import { inSampleKeyOrder } from '../store/input';
import type { FuelStore } from '../store/store';
import { type OpenedTestStore, stationRows, TEST_BACKENDS } from '../testing/stores';
import { OcmGate, ocmScraper } from './feeds/ocm';
import { listing, MAX_PARTS, runScraper } from './pipeline';
import { recordingLog } from './testing/context';
import type { FeedBatch, FetchResult, RawPrice, RawStation, Scraper } from './types';

const WORLD = [-180, -90, 180, 90] as [number, number, number, number];

function fuelStation(id: string, lon = -3.7, lat = 40.4, extra: Partial<RawStation> = {}): RawStation {
  return {
    externalId: id,
    name: `Station ${id}`,
    brand: 'Brand',
    address: 'Calle 1',
    city: 'Madrid',
    lat,
    lon,
    type: 'fuel',
    ...extra,
  };
}
const charger = (id: string) => fuelStation(id, -3.6, 40.5, { type: 'ev_charger', powerKw: 50 });
const price = (id: string, fuel: FuelCode, value: number, currency = 'EUR'): RawPrice => ({
  externalId: id,
  fuel,
  price: value,
  currency,
});

/**
 * How the suite's feeds hand over their records: whole, or in parts (each station a part of its own, then
 * the prices in one last part), so every rule of a run holds across parts too.
 */
type Handover = 'whole' | 'in parts';
let handover: Handover = 'whole';

async function* inParts(result: FetchResult): AsyncGenerator<FeedBatch> {
  for (const station of result.stations) yield { stations: [station], prices: [] };
  yield { stations: [], prices: result.prices };
}

/** A feed that hands over what the test gives it (or throws what it is told to). */
function feed(country: string, result: FetchResult | Error, source = 'testfeed'): Scraper {
  return {
    key: country,
    source,
    country,
    timeoutMs: 1000,
    fetch: async () => {
      if (result instanceof Error) throw result;
      return handover === 'whole' || result.idle ? result : { batches: inParts(result) };
    },
  };
}

async function pricesIn(store: FuelStore, country: string, fuel: string) {
  const { stations } = await stationRows(store).stationsInBox({ bbox: WORLD, fuel, limit: 20000 });
  return Object.fromEntries(
    stations
      .filter((s) => s.country === country)
      .map((s) => [s.externalId, { price: s.price, at: s.reportedAt?.getTime() }]),
  );
}
async function idsIn(store: FuelStore, country: string) {
  const all = await Promise.all(
    ['B7', 'E5', 'EV'].map((fuel) => stationRows(store).stationsInBox({ bbox: WORLD, fuel, limit: 20000 })),
  );
  return [
    ...new Set(
      all
        .flatMap((r) => r.stations)
        .filter((s) => s.country === country)
        .map((s) => s.externalId),
    ),
  ].sort();
}
const stationCount = async (store: FuelStore, country: string) =>
  (await store.stats()).countries.find((c) => c.code === country)?.stations ?? 0;

describe.each(
  (Object.keys(TEST_BACKENDS) as (keyof typeof TEST_BACKENDS)[]).flatMap((backend) =>
    (['whole', 'in parts'] as const).map((mode) => [backend, mode] as const),
  ),
)('scraper pipeline on %s, records handed over %s', (backend, mode) => {
  let opened: OpenedTestStore;
  let store: FuelStore;
  beforeAll(async () => {
    handover = mode;
    opened = await TEST_BACKENDS[backend]();
    store = opened.store;
  });
  afterAll(() => opened.dispose());

  // Each test works in a country of its own, so one database serves the whole suite.
  const run = (scraper: Scraper, extra: { batchSize?: number; historyDays?: number } = {}) => {
    const log = recordingLog();
    return runScraper(scraper, { store, log, ...extra }).then((summary) => ({ summary, log }));
  };

  it('stores stations and prices and says so in its bracketed lines', async () => {
    const { summary, log } = await run(
      feed('AA', {
        stations: [fuelStation('a1'), fuelStation('a2'), charger('ev1')],
        prices: [price('a1', 'B7', 1.5), price('a1', 'E5', 1.6), price('a2', 'B7', 1.45)],
      }),
    );
    expect(summary).toMatchObject({
      key: 'AA',
      source: 'testfeed',
      country: 'AA',
      stations: 3,
      prices: 3,
      errors: [],
    });
    expect(log.all).toEqual([
      '[testfeed] Fetching data for AA ...',
      '[testfeed] Fetched 3 stations, 3 price rows',
      '[testfeed] Upserted 3 stations',
      '[testfeed] Inserted 3 prices',
    ]);
    expect(await pricesIn(store, 'AA', 'B7')).toMatchObject({ a1: { price: 1.5 }, a2: { price: 1.45 } });
  });

  it('drops prices outside the band (count logged) and fuel stations left without a price, never chargers', async () => {
    const { summary, log } = await run(
      feed('AB', {
        stations: [fuelStation('b1'), fuelStation('b2'), charger('ev2')],
        prices: [
          price('b1', 'B7', 1.5),
          price('b1', 'E5', 9.99),
          price('b2', 'B7', 0),
          price('b2', 'CNG', 150),
        ],
      }),
    );
    expect(summary).toMatchObject({ stations: 2, prices: 1, errors: [] });
    expect(log.all).toContain('[testfeed] Filtered out 3 prices outside the price band');
    expect(log.all).toContain('[testfeed] Fetched 3 stations, 4 price rows (dropped 1 with no prices)');
    expect(await idsIn(store, 'AB')).toEqual(['b1', 'ev2']);
  });

  it('keeps one price per station and fuel (the lowest) and one row per id (the last listed)', async () => {
    const { summary } = await run(
      feed('AC', {
        stations: [
          fuelStation('c1', -3.7, 40.4, { name: 'old' }),
          fuelStation('c1', -3.7, 40.4, { name: 'new' }),
        ],
        prices: [price('c1', 'B7', 1.6), price('c1', 'B7', 1.5)],
      }),
    );
    expect(summary).toMatchObject({ stations: 1, prices: 1, errors: [] });
    const { stations } = await stationRows(store).stationsInBox({ bbox: WORLD, fuel: 'B7', limit: 100 });
    expect(stations.find((s) => s.country === 'AC')).toMatchObject({ name: 'new', price: 1.5 });
  });

  describe('the empty-fetch guard', () => {
    it.each<[string, FetchResult, string]>([
      ['an empty feed', { stations: [], prices: [] }, '0 stations / 0 valid prices'],
      [
        'every price outside the band',
        { stations: [fuelStation('g1')], prices: [price('g1', 'B7', 40), price('g1', 'E5', -1)] },
        '0 stations / 0 valid prices',
      ],
      [
        'prices of unlisted stations only',
        { stations: [], prices: [price('zz', 'B7', 1.5)] },
        '0 stations / 1 valid prices',
      ],
    ])('aborts on %s with no change and 1 error', async (_, result, counts) => {
      await run(feed('AD', { stations: [fuelStation('keep')], prices: [price('keep', 'B7', 1.4)] }));
      const before = await pricesIn(store, 'AD', 'B7');
      const { summary, log } = await run(feed('AD', result));
      expect(summary).toMatchObject({ stations: 0, prices: 0 });
      expect(summary.errors).toEqual([`Aborted destructive replace: fetch returned ${counts}`]);
      expect(log.errors).toEqual([`[testfeed] Aborted destructive replace: fetch returned ${counts}`]);
      expect(await pricesIn(store, 'AD', 'B7')).toEqual(before);
    });

    it('drops, and counts, prices under a code the document does not list', async () => {
      const { summary, log } = await run(
        feed('AJ', {
          stations: [fuelStation('a1'), fuelStation('a2')],
          prices: [
            price('a1', 'B7', 1.5),
            price('a1', 'DIESEL' as FuelCode, 1.4),
            price('a2', 'e5' as FuelCode, 1.6),
          ],
        }),
      );
      expect(summary).toMatchObject({ stations: 1, prices: 1, errors: [] });
      expect(log.lines).toContain('[testfeed] Dropped 2 prices with a fuel code the API does not list');
      expect(Object.keys(await pricesIn(store, 'AJ', 'B7'))).toEqual(['a1']);
    });

    it('a keyed charger feed without its key logs so and aborts with 1 error', async () => {
      const scraper = ocmScraper('AE', {
        baseUrl: 'http://127.0.0.1:9/v3',
        gate: new OcmGate(1, 0),
        settings: {
          apiKey: undefined,
          maxRequests: 1,
          maxConcurrency: 1,
          tileDelayMs: 0,
          timeBudgetMs: 1,
          maxResults: 1,
          minTileDeg: 1,
          trustSpanDeg: 1,
        },
      });
      const { summary, log } = await run(scraper);
      expect(summary.errors).toEqual([
        'Aborted destructive replace: fetch returned 0 stations / 0 valid prices',
      ]);
      expect(log.all.slice(0, 2)).toEqual([
        '[ocm] Fetching data for AE ...',
        '[ocm] APP_OCM_API_KEY not set, skipping',
      ]);
    });
  });

  it('a fetch failure stops before the database: previous prices stay with their old time', async () => {
    await run(feed('AF', { stations: [fuelStation('f1')], prices: [price('f1', 'B7', 1.4)] }));
    const before = await pricesIn(store, 'AF', 'B7');
    const { summary, log } = await run(feed('AF', new Error('HTTP 403 from feed.example')));
    expect(summary.errors).toEqual(['Fatal: HTTP 403 from feed.example']);
    expect(log.all).toEqual([
      '[testfeed] Fetching data for AF ...',
      '[testfeed] Fatal error: HTTP 403 from feed.example',
    ]);
    expect(await pricesIn(store, 'AF', 'B7')).toEqual(before);
  });

  it('a feed failing after some parts stops before the database: no station or price of its parts is written', async () => {
    await run(feed('AX', { stations: [fuelStation('x1')], prices: [price('x1', 'B7', 1.4)] }));
    const before = await pricesIn(store, 'AX', 'B7');
    const tmp = mkdtempSync(path.join(tmpdir(), 'pipeline-spool-'));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      const failing: Scraper = {
        ...feed('AX', { stations: [], prices: [] }),
        fetch: async () => ({
          batches: (async function* () {
            yield {
              stations: [fuelStation('x1', -3.6, 40.3, { name: 'Renamed' })],
              prices: [price('x1', 'B7', 1.9)],
            };
            yield { stations: [fuelStation('x2')], prices: [price('x2', 'B7', 1.5)] };
            yield { stations: [fuelStation('x3')], prices: [price('x3', 'B7', 1.5)] };
            throw new Error('Invalid JSON from feed.example: Unexpected end');
          })(),
        }),
      };
      const { summary, log } = await run(failing);
      expect(summary).toMatchObject({
        stations: 0,
        prices: 0,
        errors: ['Fatal: Invalid JSON from feed.example: Unexpected end'],
      });
      expect(log.all).toEqual([
        '[testfeed] Fetching data for AX ...',
        '[testfeed] Fatal error: Invalid JSON from feed.example: Unexpected end',
      ]);
      // The parts set aside on disk are gone with the run.
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      rmSync(tmp, { recursive: true, force: true });
    }
    expect(await idsIn(store, 'AX')).toEqual(['x1']);
    expect(await pricesIn(store, 'AX', 'B7')).toEqual(before);
    const { stations } = await stationRows(store).stationsInBox({ bbox: WORLD, fuel: 'B7', limit: 20000 });
    expect(stations.find((s) => s.externalId === 'x1')?.name).toBe('Station x1');
  });

  it('a shorter list still replaces prices and cleans up unlisted fuel stations, never chargers', async () => {
    await run(
      feed('AG', {
        stations: [fuelStation('h1'), fuelStation('h2'), charger('ev3')],
        prices: [price('h1', 'B7', 1.4), price('h2', 'B7', 1.5)],
      }),
    );
    const { summary, log } = await run(
      feed('AG', { stations: [fuelStation('h1')], prices: [price('h1', 'B7', 1.3)] }),
    );
    expect(summary).toMatchObject({ stations: 1, prices: 1, errors: [] });
    expect(log.all).toContain('[testfeed] Cleaned up 1 stations with no prices');
    expect(await idsIn(store, 'AG')).toEqual(['ev3', 'h1']);
    expect(await pricesIn(store, 'AG', 'B7')).toMatchObject({ h1: { price: 1.3 } });
  });

  it('with APP_PRICE_HISTORY_DAYS=0 records no change and deletes what the country had recorded', async () => {
    const since = new Date('2000-01-01T00:00:00Z');
    const history = () => store.priceHistory({ country: 'QZ', fuel: 'B7', since });
    await run(feed('QZ', { stations: [fuelStation('k1')], prices: [price('k1', 'B7', 1.4)] }));
    expect((await history()).map((r) => r.price)).toEqual([1.4]);
    const { summary, log } = await run(
      feed('QZ', { stations: [fuelStation('k1')], prices: [price('k1', 'B7', 1.5)] }),
      { historyDays: 0 },
    );
    expect(summary).toMatchObject({ prices: 1, errors: [] });
    expect(log.all).toContain('[testfeed] Deleted 1 price changes: the price history is turned off');
    expect(await history()).toEqual([]);
    expect(await pricesIn(store, 'QZ', 'B7')).toMatchObject({ k1: { price: 1.5 } });
    // Turned on again, the next change is recorded.
    await run(feed('QZ', { stations: [fuelStation('k1')], prices: [price('k1', 'B7', 1.55)] }));
    expect((await history()).map((r) => r.price)).toEqual([1.55]);
  });

  it('replaces only its own source in its own country', async () => {
    await run(feed('AH', { stations: [fuelStation('s1')], prices: [price('s1', 'B7', 1.4)] }, 'first'));
    await run(
      feed('AH', { stations: [fuelStation('s2', -3.5)], prices: [price('s2', 'B7', 1.6)] }, 'second'),
    );
    await run(feed('AI', { stations: [fuelStation('s1')], prices: [price('s1', 'B7', 1.7)] }, 'first'));
    await run(feed('AH', { stations: [fuelStation('s1')], prices: [price('s1', 'B7', 1.35)] }, 'first'));
    expect(await pricesIn(store, 'AH', 'B7')).toMatchObject({ s1: { price: 1.35 }, s2: { price: 1.6 } });
    expect(await pricesIn(store, 'AI', 'B7')).toMatchObject({ s1: { price: 1.7 } });
  });

  it('a failed station batch is an error and skips the orphan cleanup', async () => {
    await run(
      feed('AJ', {
        stations: ['j1', 'j2', 'j3', 'j4'].map((id) => fuelStation(id)),
        prices: ['j1', 'j2', 'j3', 'j4'].map((id) => price(id, 'B7', 1.5)),
      }),
    );
    // A parser defect: a station without a name, in a batch of its own (the stores write stations in
    // sample-key order, so its batch is its place in that order).
    const broken = fuelStation('j3', -3.7, 40.4, { name: null as unknown as string });
    // In parts, each station is written with its part: its batch is its place in the feed.
    const given = ['j1', 'j2', 'j3'].map((id) => ({ country: 'AJ', externalId: id }));
    const at = (mode === 'whole' ? inSampleKeyOrder(given) : given).map((s) => s.externalId).indexOf('j3');
    const { summary, log } = await run(
      feed('AJ', {
        stations: [fuelStation('j1'), fuelStation('j2'), broken],
        prices: [price('j1', 'B7', 1.4), price('j2', 'B7', 1.4), price('j3', 'B7', 1.4)],
      }),
      { batchSize: 1 },
    );
    expect(summary.stations).toBe(2);
    expect(summary.errors).toHaveLength(2);
    expect(summary.errors[0]).toMatch(new RegExp(`^Station batch ${at}-${at + 1}: `));
    expect(summary.errors[1]).toBe('Skipped orphan cleanup: one or more station batches failed');
    expect(log.errors).toEqual(['[testfeed] Skipped orphan cleanup: one or more station batches failed']);
    // j4 lost its price but was not deleted: the cleanup did not run.
    expect(await stationCount(store, 'AJ')).toBe(4);
  });

  it('a fault inside the price transaction leaves no half-written country: the previous prices stay', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `k${i}`);
    await run(
      feed('AK', {
        stations: ids.map((id) => fuelStation(id)),
        prices: ids.map((id) => price(id, 'B7', 1.5)),
      }),
    );
    const before = await pricesIn(store, 'AK', 'B7');
    // The last row breaks a NOT NULL constraint after the delete and 29 inserts already ran.
    const poisoned = [
      ...ids.map((id) => price(id, 'B7', 1.2)),
      price('k29', 'E5', 1.3, null as unknown as string),
    ];
    const { summary, log } = await run(
      feed('AK', { stations: ids.map((id) => fuelStation(id)), prices: poisoned }),
    );
    expect(summary.errors).toHaveLength(1);
    expect(summary.errors[0]).toMatch(/^Fatal: /);
    expect(log.errors[0]).toMatch(/^\[testfeed\] Fatal error: /);
    expect(await pricesIn(store, 'AK', 'B7')).toEqual(before);
    expect(Object.values(before)).toHaveLength(30);
  });

  it('an idle feed (a spent hourly allowance) writes nothing and is no error', async () => {
    const { summary, log } = await run(feed('AL', { stations: [], prices: [], idle: 'allowance spent' }));
    expect(summary.errors).toEqual([]);
    expect(log.all).toEqual([
      '[testfeed] Fetching data for AL ...',
      '[testfeed] Nothing to store this run: allowance spent',
    ]);
  });
});

describe('a listing', () => {
  it('keeps the part and the fuel bit in 31 bits, and refuses a part past them rather than wrap', () => {
    expect(listing(MAX_PARTS - 1, { type: 'fuel' }) + 2).toBe(2 ** 31 - 1);
    expect(new Int32Array([listing(MAX_PARTS - 1, { type: 'fuel' }) + 2])[0]).toBe(2 ** 31 - 1);
    expect(listing(3, { type: 'ev_charger' })).toBe(12);
    expect(() => listing(MAX_PARTS, { type: 'fuel' })).toThrow(/more than 536870912 parts/);
  });
});
