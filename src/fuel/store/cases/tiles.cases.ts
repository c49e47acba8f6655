/**
 * The map's vector tiles: each tile decoded and held against the stations the box read finds (the rows,
 * placed as model/tiles.ts says), on every backend.
 */
import { beforeEach, describe, expect } from 'vitest';
import { seededRandom } from '../../../common/seeded-random';
import { POINTS_ZOOM } from '../../model/tile-points';
import {
  medianOfSorted,
  PYRAMID_MAX_ZOOM,
  placeInTile,
  STREET_ZOOM,
  type TileAddress,
  worldFraction,
} from '../../model/tiles';
import { stationRows } from '../../testing/stores';
import { type DecodedPoint, decodeTile } from '../../testing/tiles';
import type { FuelStore, LonLat, PriceInput, StationInput, StationRow } from '../store';
import { type CaseIt, price, type StoreUnderTest, station } from './common';

const TWIN: LonLat = [-3.70379, 40.41678];

/** A dense city, a sparse country, two neighbours (one in francs), twins at one address, charge points. */
async function writeStations(store: FuelStore): Promise<number> {
  const next = seededRandom(47);
  const within = ([w, s, e, n]: number[]): LonLat => [
    (w as number) + next() * ((e as number) - (w as number)),
    (s as number) + next() * ((n as number) - (s as number)),
  ];
  const areas: { prefix: string; count: number; box: number[]; country: string; currency: string }[] = [
    { prefix: 'mad', count: 150, box: [-3.9, 40.3, -3.5, 40.6], country: 'ES', currency: 'EUR' },
    { prefix: 'es', count: 60, box: [-9, 36, 3, 43.5], country: 'ES', currency: 'EUR' },
    { prefix: 'pt', count: 20, box: [-9.3, 38.6, -8.5, 41], country: 'PT', currency: 'EUR' },
    { prefix: 'ch', count: 10, box: [6, 46, 8, 47.5], country: 'CH', currency: 'CHF' },
  ];
  const stations: StationInput[] = [];
  const prices = new Map<string, PriceInput[]>();
  for (const area of areas) {
    for (let i = 0; i < area.count; i++) {
      const id = `${area.prefix}-${i}`;
      stations.push(station(id, within(area.box), { country: area.country }));
      // Every seventh station sells no diesel.
      if (i % 7 === 3) continue;
      const value = Math.round((1.3 + next() * 0.4) * 1000) / 1000;
      const list = prices.get(area.country) ?? [];
      list.push(price(id, 'B7', value, { country: area.country, currency: area.currency }));
      prices.set(area.country, list);
    }
  }
  stations.push(station('twin-a', TWIN, { address: 'Puerta del Sol, 1' }));
  stations.push(station('twin-b', TWIN, { address: 'Puerta del Sol, 1' }));
  prices.get('ES')?.push(price('twin-a', 'B7', 1.401), price('twin-b', 'B7', 1.399));
  for (let i = 0; i < 15; i++) {
    stations.push(
      station(`ev-${i}`, within([-3.9, 40.3, -3.5, 40.6]), {
        type: 'ev_charger',
        powerKw: 50 + i,
        source: 'ocm',
      }),
    );
  }
  await store.upsertStations(stations);
  for (const [country, list] of prices) await store.replacePrices(`feed-${country}`, country, list);
  return [...prices.values()].reduce((sum, list) => sum + list.length, 0);
}

/** The tile of a zoom holding a position. */
function tileOf(z: number, [lon, lat]: LonLat): TileAddress {
  const [fx, fy] = worldFraction(lon, lat);
  return { z, x: Math.floor(fx * 2 ** z), y: Math.floor(fy * 2 ** z) };
}

/** What a cluster tile should hold, from the stations the box read finds: placeInTile, cell by cell. */
function expectedClusters(tile: TileAddress, rows: StationRow[]) {
  const cells = new Map<number, { xs: number[]; ys: number[]; prices: number[]; currencies: Set<string> }>();
  for (const row of rows) {
    const place = placeInTile(tile, row.lon, row.lat);
    if (!place) continue;
    const cell = cells.get(place.cell) ?? { xs: [], ys: [], prices: [], currencies: new Set<string>() };
    cells.set(place.cell, cell);
    cell.xs.push(place.px);
    cell.ys.push(place.py);
    if (row.price !== null) cell.prices.push(row.price);
    if (row.price !== null && row.currency !== null) cell.currencies.add(row.currency);
  }
  const mean = (list: number[]) => Math.round(list.reduce((a, b) => a + b, 0) / list.length);
  return [...cells.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, cell]) => {
      const sorted = [...cell.prices].sort((a, b) => a - b);
      return {
        x: mean(cell.xs),
        y: mean(cell.ys),
        count: cell.xs.length,
        cheapest: sorted[0],
        median: medianOfSorted(sorted) ?? undefined,
        currency: cell.currencies.size === 1 ? [...cell.currencies][0] : undefined,
      };
    });
}

/** The decoded clusters in the same shape (a position may differ by one unit of rounding). */
function expectSameClusters(decoded: DecodedPoint[], expected: ReturnType<typeof expectedClusters>): void {
  expect(decoded.map((p) => p.properties.count)).toEqual(expected.map((e) => e.count));
  decoded.forEach((point, i) => {
    const want = expected[i] as (typeof expected)[number];
    expect(Math.abs(point.x - want.x)).toBeLessThanOrEqual(1);
    expect(Math.abs(point.y - want.y)).toBeLessThanOrEqual(1);
    expect(point.properties.cheapest).toBe(want.cheapest);
    if (want.median === undefined) expect(point.properties.median).toBeUndefined();
    else expect(point.properties.median as number).toBeCloseTo(want.median, 12);
    expect(point.properties.currency).toBe(want.currency);
  });
}

export function tilesCases(it: CaseIt, under: StoreUnderTest): void {
  let store: FuelStore;
  let rows: StationRow[];
  let priced: number;
  const tileOfFuel = async (fuel: string, address: TileAddress) =>
    decodeTile(await store.stationTile({ fuel, ...address }));
  describe('vector tiles', () => {
    beforeEach(async () => {
      store = under.store;
      priced = await writeStations(store);
      rows = (
        await stationRows(store).stationsInBox({ bbox: [-180, -90, 180, 90], fuel: 'B7', limit: 10_000 })
      ).stations;
    });

    it('a cluster tile holds every station of the fuel in it: a point per cell with the count, cheapest and median price', async () => {
      expect(rows).toHaveLength(priced);
      for (const address of [{ z: 0, x: 0, y: 0 }, tileOf(5, TWIN), tileOf(9, TWIN), tileOf(12, TWIN)]) {
        const layers = await tileOfFuel('B7', address);
        expect(Object.keys(layers)).toEqual(['clusters']);
        expectSameClusters(layers.clusters as DecodedPoint[], expectedClusters(address, rows));
      }
      // The whole world in one tile: every station counted; Switzerland's cells, a zoom closer, in francs.
      const world = (await tileOfFuel('B7', { z: 0, x: 0, y: 0 })).clusters as DecodedPoint[];
      expect(world.reduce((sum, p) => sum + Number(p.properties.count), 0)).toBe(priced);
      const swiss = (await tileOfFuel('B7', tileOf(5, [7, 46.75]))).clusters ?? [];
      expect(swiss.some((p) => p.properties.currency === 'CHF')).toBe(true);
      expect(Math.min(...world.map((p) => Number(p.properties.cheapest)))).toBe(
        Math.min(...rows.map((r) => r.price as number)),
      );
    });

    it('the tiles of one zoom count every station once, whatever the zoom', async () => {
      for (const z of [3, 7, 10]) {
        const corners = [tileOf(z, [-9.5, 47.6]), tileOf(z, [8.1, 35.9])];
        let total = 0;
        for (let x = (corners[0] as TileAddress).x; x <= (corners[1] as TileAddress).x; x++) {
          for (let y = (corners[0] as TileAddress).y; y <= (corners[1] as TileAddress).y; y++) {
            const clusters = (await tileOfFuel('B7', { z, x, y })).clusters ?? [];
            total += clusters.reduce((sum, p) => sum + Number(p.properties.count), 0);
          }
        }
        expect(total, `zoom ${z}`).toBe(rows.length);
      }
    });

    it('from street zoom on every station is its own point with its Feature’s properties, two at one address included', async () => {
      const address = tileOf(STREET_ZOOM, TWIN);
      const layers = await tileOfFuel('B7', address);
      expect(Object.keys(layers)).toEqual(['stations']);
      const points = layers.stations as DecodedPoint[];
      const inTile = rows.filter((r) => placeInTile(address, r.lon, r.lat));
      expect(points.map((p) => p.properties.externalId).sort()).toEqual(
        inTile.map((r) => r.externalId).sort(),
      );
      const twins = points.filter((p) => String(p.properties.externalId).startsWith('twin-'));
      expect(twins.map((p) => [p.properties.externalId, p.properties.price])).toEqual([
        ['twin-a', 1.401],
        ['twin-b', 1.399],
      ]);
      const [a, b] = twins as [DecodedPoint, DecodedPoint];
      expect([a.x, a.y]).toEqual([b.x, b.y]);
      const place = placeInTile(address, TWIN[0], TWIN[1]);
      expect(Math.abs(a.x - (place?.px ?? -9))).toBeLessThanOrEqual(1);
      const row = inTile.find((r) => r.externalId === 'twin-a') as StationRow;
      // Every property of the station's Feature but its database id.
      expect(a.properties).toEqual({
        externalId: 'twin-a',
        country: 'ES',
        name: 'Station twin-a',
        brand: 'Repsol',
        address: 'Puerta del Sol, 1',
        city: 'Madrid',
        fuelType: 'B7',
        price: 1.401,
        currency: 'EUR',
        reportedAt: row.reportedAt?.getTime(),
      });
      // Each station once across a street zoom's tiles too: the twins' neighbours to the east and south.
      const east = await tileOfFuel('B7', { ...address, x: address.x + 1 });
      expect((east.stations ?? []).some((p) => String(p.properties.externalId).startsWith('twin-'))).toBe(
        false,
      );
    });

    it('at street zoom every priced station is in the tile holding it, with its price', async () => {
      const tiles = new Map<string, TileAddress>();
      for (const [i, row] of rows.entries()) {
        for (const z of i % 5 === 0 ? [STREET_ZOOM, 18, 22] : [STREET_ZOOM]) {
          const address = tileOf(z, [row.lon, row.lat]);
          tiles.set(`${address.z}/${address.x}/${address.y}`, address);
        }
      }
      const price = new Map(rows.map((r) => [r.externalId, r.price]));
      for (const [key, address] of tiles) {
        const points = (await tileOfFuel('B7', address)).stations ?? [];
        const ids = rows.filter((r) => placeInTile(address, r.lon, r.lat)).map((r) => r.externalId);
        expect(ids.length, key).toBeGreaterThan(0);
        expect(points.map((p) => p.properties.externalId).sort(), key).toEqual(ids.sort());
        for (const p of points)
          expect(p.properties.price, key).toBe(price.get(String(p.properties.externalId)));
      }
    });

    it('a station that moves leaves its street tile for its new one, with its price', async () => {
      const row = rows.find((r) => r.externalId === 'mad-5') as StationRow;
      const lisbon: LonLat = [-9.1393, 38.7223];
      const ids = async (position: LonLat) =>
        ((await tileOfFuel('B7', tileOf(STREET_ZOOM, position))).stations ?? []).map((p) => [
          p.properties.externalId,
          p.properties.price,
        ]);
      expect(await ids([row.lon, row.lat])).toContainEqual(['mad-5', row.price]);
      await store.upsertStations([station('mad-5', lisbon)]);
      expect(await ids(lisbon)).toContainEqual(['mad-5', row.price]);
      expect(await ids([row.lon, row.lat])).not.toContainEqual(['mad-5', row.price]);
    });

    it('charge points: clusters count them without prices; at street zoom each has its power', async () => {
      const chargers = (
        await stationRows(store).stationsInBox({ bbox: [-180, -90, 180, 90], fuel: 'EV', limit: 100 })
      ).stations;
      expect(chargers).toHaveLength(15);
      const clusters = (await tileOfFuel('EV', tileOf(8, TWIN))).clusters as DecodedPoint[];
      expect(clusters.reduce((sum, p) => sum + Number(p.properties.count), 0)).toBe(15);
      for (const cluster of clusters) expect(Object.keys(cluster.properties)).toEqual(['count']);
      const first = chargers.find((r) => r.externalId === 'ev-0') as StationRow;
      const points = (await tileOfFuel('EV', tileOf(STREET_ZOOM, [first.lon, first.lat]))).stations ?? [];
      expect(points.find((p) => p.properties.externalId === 'ev-0')?.properties).toMatchObject({
        fuelType: 'EV',
        currency: 'EUR',
        powerKw: 50,
      });
      for (const point of points) expect(point.properties.price).toBeUndefined();
    });

    it('a tile without stations is no bytes, and the same tile is the same bytes each time', async () => {
      expect(await store.stationTile({ fuel: 'B7', z: 6, x: 0, y: 0 })).toHaveLength(0);
      expect(await store.stationTile({ fuel: 'E85', z: 0, x: 0, y: 0 })).toHaveLength(0);
      const address = tileOf(9, TWIN);
      const first = await store.stationTile({ fuel: 'B7', ...address });
      expect(first.length).toBeGreaterThan(0);
      expect(await store.stationTile({ fuel: 'B7', ...address })).toEqual(first);
    });

    /**
     * Every tile a build answers (the cluster table's zooms, then the packed stations' up to POINTS_ZOOM)
     * holding a station of the fuel, and two empty ones.
     */
    const lowZoomTiles = (list: StationRow[]) => {
      const seen = new Map<string, TileAddress>([
        ['3/0/0', { z: 3, x: 0, y: 0 }],
        ['12/0/0', { z: 12, x: 0, y: 0 }],
      ]);
      for (let z = 0; z <= POINTS_ZOOM; z++) {
        for (const r of list) {
          const t = tileOf(z, [r.lon, r.lat]);
          seen.set(`${t.z}/${t.x}/${t.y}`, t);
        }
      }
      return [...seen.values()];
    };
    const bytesOf = (fuel: string, addresses: TileAddress[]) =>
      Promise.all(
        addresses.map(async (a) => Buffer.from(await store.stationTile({ fuel, ...a })).toString('hex')),
      );

    it('a build answers the low and middle zooms with the very bytes computed from the stations', async () => {
      const chargers = (
        await stationRows(store).stationsInBox({ bbox: [-180, -90, 180, 90], fuel: 'EV', limit: 100 })
      ).stations;
      const fuelTiles = lowZoomTiles(rows);
      const evTiles = lowZoomTiles(chargers);
      const live = { B7: await bytesOf('B7', fuelTiles), EV: await bytesOf('EV', evTiles) };
      const refresh = await store.refreshStationClusters();
      expect(refresh.rebuilt).toEqual(['B7', 'EV']);
      expect(refresh.cells).toBeGreaterThan(fuelTiles.filter((t) => t.z <= PYRAMID_MAX_ZOOM).length);
      expect(fuelTiles.some((t) => t.z > PYRAMID_MAX_ZOOM)).toBe(true);
      expect(await bytesOf('B7', fuelTiles)).toEqual(live.B7);
      expect(await bytesOf('EV', evTiles)).toEqual(live.EV);
      // Nothing changed since: nothing to build.
      expect((await store.refreshStationClusters()).rebuilt).toEqual([]);
    });

    it('after every kind of write the low and middle zooms show the last build until the next, then the new stations and prices', async () => {
      const world = { z: 0, x: 0, y: 0 };
      // A middle zoom's tile (from the packed stations) where the writes below change a price, then delete.
      const swissTile = tileOf(11, [
        (rows.find((r) => r.country === 'CH') as StationRow).lon,
        (rows.find((r) => r.country === 'CH') as StationRow).lat,
      ]);
      const now = async () =>
        (await stationRows(store).stationsInBox({ bbox: [-180, -90, 180, 90], fuel: 'B7', limit: 10_000 }))
          .stations;
      const swiss = rows.filter((r) => r.country === 'CH');
      const steps: [string, () => Promise<unknown>][] = [
        [
          'a price',
          () =>
            store.replacePrices(
              'feed-CH',
              'CH',
              swiss.map((r) => price(r.externalId, 'B7', 9.99, { country: 'CH', currency: 'CHF' })),
            ),
        ],
        ['a station moved', () => store.upsertStations([station('pt-0', [20, 60], { country: 'PT' })])],
        [
          'a station added with a price',
          async () => {
            await store.upsertStations([station('fi-0', [25, 62], { country: 'FI' })]);
            await store.replacePrices('feed-FI', 'FI', [price('fi-0', 'B7', 1.8, { country: 'FI' })]);
          },
        ],
        ['prices withdrawn', () => store.replacePrices('feed-CH', 'CH', [])],
        ['orphans deleted', () => store.deleteOrphanFuelStations('CH')],
        ['a source’s stations deleted', () => store.deleteStationsBySource('miteco', 'PT')],
      ];
      for (const [step, write] of steps) {
        await store.refreshStationClusters();
        const built = await bytesOf('B7', [world, swissTile]);
        const version = await store.tileVersion();
        await write();
        expect(await store.tileVersion(), step).not.toBe(version);
        expect(await bytesOf('B7', [world, swissTile]), step).toEqual(built);
        const afterWrite = await store.tileVersion();
        expect((await store.refreshStationClusters()).rebuilt, step).toContain('B7');
        expect(await store.tileVersion(), step).not.toBe(afterWrite);
        for (const tile of [world, swissTile]) {
          const expected = expectedClusters(tile, await now());
          const clusters = (await tileOfFuel('B7', tile)).clusters ?? [];
          expect(clusters.length, step).toBe(expected.length);
          expectSameClusters(clusters, expected);
        }
      }
    });

    it('a price change changes the tiles holding that station, at every zoom, and no other tile', async () => {
      const changed = rows.find((r) => r.externalId === 'mad-11') as StationRow;
      const zooms = [2, 6, 10, 15];
      const addresses = zooms.flatMap((z) => {
        const seen = new Map<string, TileAddress>();
        for (const r of rows) {
          const t = tileOf(z, [r.lon, r.lat]);
          seen.set(`${t.z}/${t.x}/${t.y}`, t);
        }
        return [...seen.values()];
      });
      const before = await Promise.all(addresses.map((a) => store.stationTile({ fuel: 'B7', ...a })));
      const spanish = rows
        .filter((r) => r.country === 'ES')
        .map((r) => price(r.externalId, 'B7', r.externalId === 'mad-11' ? 1.111 : (r.price as number)));
      // The same prices, one changed; written with the times they had, so only the one price moves.
      const times = new Map(rows.map((r) => [r.externalId, r.reportedAt as Date]));
      await store.replacePrices(
        'feed-ES',
        'ES',
        spanish.map((p) => ({
          ...p,
          reportedAt: p.externalId === 'mad-11' ? undefined : times.get(p.externalId),
        })),
      );
      const after = await Promise.all(addresses.map((a) => store.stationTile({ fuel: 'B7', ...a })));
      const moved = addresses.filter(
        (_, i) =>
          Buffer.compare(Buffer.from(before[i] as Uint8Array), Buffer.from(after[i] as Uint8Array)) !== 0,
      );
      expect(moved.map((a) => `${a.z}/${a.x}/${a.y}`)).toEqual(
        zooms.map((z) => tileOf(z, [changed.lon, changed.lat])).map((a) => `${a.z}/${a.x}/${a.y}`),
      );
      const street = (await tileOfFuel('B7', tileOf(15, [changed.lon, changed.lat]))).stations ?? [];
      expect(street.find((p) => p.properties.externalId === 'mad-11')?.properties.price).toBe(1.111);
    });
  });
}
