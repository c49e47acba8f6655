/** Reads: boxes, nearest, along a line, places, statistics. */
import { beforeEach, describe, expect } from 'vitest';
import { nearestOnLine, prepareLine } from '../../geo/line';
import { destination, greatCircleKm, intermediate } from '../../geo/sphere';
import { parseFeatureTexts } from '../../testing/json';
import { stationRows } from '../../testing/stores';
import { sampleKey } from '../sample-key';
import type { FuelStore, LonLat, StationType } from '../store';
import { at, type CaseIt, MADRID, price, type StoreUnderTest, station } from './common';

export function readsCases(it: CaseIt, under: StoreUnderTest): void {
  let store: FuelStore;
  beforeEach(() => {
    store = under.store;
  });

  describe('reads', () => {
    it('finds places among the stations’ towns (most stations first), then their addresses', async () => {
      await store.upsertStations([
        station('1', [-3.7, 40.41], { city: 'Madrid' }),
        station('2', [-3.72, 40.43], { city: 'Madrid' }),
        station('3', [-3.6, 40.5], { city: 'Alcobendas', address: 'Avenida de Madrid, 3' }),
        station('4', [2.17, 41.39], { city: 'Barcelona', address: 'Carrer 100%_x' }),
      ]);
      const places = await store.searchPlaces('MADR', 5);
      expect(places.map((p) => [p.city, p.address, p.country])).toEqual([
        ['Madrid', null, 'ES'],
        ['Alcobendas', 'Avenida de Madrid, 3', 'ES'],
      ]);
      expect(places[0]?.lon).toBeCloseTo(-3.71, 5);
      expect(places[0]?.lat).toBeCloseTo(40.42, 5);
      // LIKE's wildcards in the text are plain characters.
      expect((await store.searchPlaces('100%_', 5)).map((p) => p.city)).toEqual(['Barcelona']);
      // Unescaped, 'o%' would be any text with an "o".
      expect(await store.searchPlaces('o%', 5)).toEqual([]);
      expect(await store.searchPlaces('madrid', 1)).toHaveLength(1);
    });

    it('selects stations in a box with their newest price for the fuel, or EV charge points', async () => {
      await store.upsertStations([
        station('in', [-3.7, 40.4]),
        station('edge', [-3.5, 40.5]),
        station('out', [-3.4, 40.4]),
        station('no-b7', [-3.6, 40.45]),
        station('ev', [-3.65, 40.45], { type: 'ev_charger', powerKw: 150, source: 'ocm' }),
        station('both', [-3.66, 40.45], { type: 'both', source: 'ocm' }),
      ]);
      await store.replacePrices('miteco', 'ES', [
        price('in', 'B7', 1.4, { reportedAt: at('2026-05-01T06:00:00Z') }),
        price('edge', 'B7', 1.5, { reportedAt: at('2026-05-01T06:00:00Z') }),
        price('out', 'B7', 1.5),
        price('no-b7', 'E5', 1.6),
        price('both', 'B7', 1.45, { reportedAt: at('2026-05-01T06:00:00Z') }),
      ]);
      await store.replacePrices('other', 'ES', [
        price('in', 'B7', 1.39, { reportedAt: at('2026-05-02T06:00:00Z') }),
        price('edge', 'B7', 1.55, { reportedAt: at('2026-04-30T06:00:00Z'), currency: 'EUR' }),
      ]);
      const bbox: [number, number, number, number] = [-3.8, 40.3, -3.5, 40.5];
      const b7 = await stationRows(store).stationsInBox({ bbox, fuel: 'B7', limit: 100 });
      expect(b7.truncated).toBe(false);
      const byId = Object.fromEntries(b7.stations.map((s) => [s.externalId, s]));
      expect(Object.keys(byId).sort()).toEqual(['both', 'edge', 'in']);
      expect(byId.in).toMatchObject({
        price: 1.39,
        currency: 'EUR',
        reportedAt: at('2026-05-02T06:00:00Z'),
      });
      expect(byId.edge).toMatchObject({ price: 1.5, reportedAt: at('2026-05-01T06:00:00Z') });

      const ev = await stationRows(store).stationsInBox({ bbox, fuel: 'EV', limit: 100 });
      expect(ev.stations.map((s) => [s.externalId, s.type, s.powerKw, s.price]).sort()).toEqual([
        ['both', 'both', null, null],
        ['ev', 'ev_charger', 150, null],
      ]);
    });

    it('cuts an oversized box to the stations with the smallest sample keys, the same way every time', async () => {
      const ids = Array.from({ length: 30 }, (_, i) => `s${i}`);
      await store.upsertStations(ids.map((id, i) => station(id, [-3.7 + i * 0.001, 40.4])));
      await store.replacePrices(
        'miteco',
        'ES',
        ids.map((id) => price(id, 'B7', 1.4)),
      );
      const query = { bbox: [-4, 40, -3, 41] as [number, number, number, number], fuel: 'B7', limit: 10 };
      const first = await stationRows(store).stationsInBox(query);
      const second = await stationRows(store).stationsInBox(query);
      expect(first.truncated).toBe(true);
      expect(first.stations).toHaveLength(10);
      const expected = [...ids].sort((a, b) => sampleKey('ES', a) - sampleKey('ES', b)).slice(0, 10);
      expect(first.stations.map((s) => s.externalId)).toEqual(expected);
      expect(second.stations.map((s) => s.id)).toEqual(first.stations.map((s) => s.id));
      // A box holding fewer than twice the stations asked for takes the other path, with the same answer.
      const twenty = await stationRows(store).stationsInBox({ ...query, limit: 20 });
      expect(twenty.truncated).toBe(true);
      expect(twenty.stations.map((s) => s.externalId)).toEqual(
        [...ids].sort((a, b) => sampleKey('ES', a) - sampleKey('ES', b)).slice(0, 20),
      );
      const all = await stationRows(store).stationsInBox({ ...query, limit: 30 });
      expect(all).toMatchObject({ truncated: false, stations: expect.any(Array) });
      expect(all.stations).toHaveLength(30);
    });

    it('keeps apart two stations that share a sample key, each with its own prices', async () => {
      // Found by search: two ids whose 31-bit sample keys are equal.
      const [a, b] = ['t18520', 't68184'];
      expect(sampleKey('ES', a)).toBe(sampleKey('ES', b));
      await store.upsertStations([station(b, [-3.7, 40.4]), station('other', [-3.69, 40.4])]);
      await store.upsertStations([station(a, [-3.71, 40.4])]);
      await store.replacePrices('miteco', 'ES', [
        price(a, 'B7', 1.4),
        price(b, 'B7', 1.5),
        price('other', 'B7', 1.6),
      ]);
      const query = { bbox: [-4, 40, -3, 41] as [number, number, number, number], fuel: 'B7', limit: 10 };
      const prices = async () =>
        Object.fromEntries(
          (await stationRows(store).stationsInBox(query)).stations.map((s) => [s.externalId, s.price]),
        );
      expect(await prices()).toEqual({ [a]: 1.4, [b]: 1.5, other: 1.6 });
      await store.replacePrices('miteco', 'ES', [price(a, 'B7', 1.45), price(b, 'B7', 1.5)]);
      expect(await prices()).toEqual({ [a]: 1.45, [b]: 1.5 });
      const texts = await store.stationFeaturesInBox(query);
      expect(
        parseFeatureTexts(texts)
          .map((f) => f.properties.price)
          .sort(),
      ).toEqual([1.45, 1.5]);
    });

    it('finds the nearest stations by great-circle distance, east-west as far as north-south', async () => {
      const centre: LonLat = [10, 60];
      const points: Record<string, LonLat> = {
        east4: destination(centre, 90, 4),
        north2: destination(centre, 0, 2),
        west6: destination(centre, 270, 6),
        south9: destination(centre, 180, 9),
      };
      await store.upsertStations(
        Object.entries(points).map(([id, p]) => station(id, p, { country: 'NO', source: 'no' })),
      );
      await store.replacePrices(
        'no',
        'NO',
        Object.keys(points).map((id) => price(id, 'B7', 20, { country: 'NO', currency: 'NOK' })),
      );
      const found = await store.nearestStations({ lon: 10, lat: 60, radiusKm: 7, fuel: 'B7', limit: 5 });
      expect(found.map((s) => s.externalId)).toEqual(['north2', 'east4', 'west6']);
      for (const s of found) {
        expect(s.distanceKm).toBeCloseTo(greatCircleKm(centre, [s.lon, s.lat]), 6);
      }
      expect(found[1]?.distanceKm).toBeCloseTo(4, 6);
      const limited = await store.nearestStations({
        lon: 10,
        lat: 60,
        radiusKm: 100,
        fuel: 'B7',
        limit: 2,
      });
      expect(limited.map((s) => s.externalId)).toEqual(['north2', 'east4']);
      expect(await store.nearestStations({ lon: 10, lat: 60, radiusKm: 1, fuel: 'B7', limit: 5 })).toEqual(
        [],
      );
      expect(await store.nearestStations({ lon: 10, lat: 60, radiusKm: 10, fuel: 'EV', limit: 5 })).toEqual(
        [],
      );
    });

    it('reads the newest price after every replace: another source newer, withdrawn, a lower price', async () => {
      await store.upsertStations([station('one', MADRID), station('two', [-3.7, 40.42])]);
      const t = (h: number) => at(`2026-05-0${h}T06:00:00Z`);
      const read = async () => {
        const box = await stationRows(store).stationsInBox({
          bbox: [-4, 40, -3, 41],
          fuel: 'B7',
          limit: 10,
        });
        const near = await store.nearestStations({
          lon: MADRID[0],
          lat: MADRID[1],
          radiusKm: 5,
          fuel: 'B7',
          limit: 5,
        });
        const json = await store.stationFeaturesInBox({ bbox: [-4, 40, -3, 41], fuel: 'B7', limit: 10 });
        const byBox = Object.fromEntries(box.stations.map((s) => [s.externalId, s.price]));
        expect(Object.fromEntries(near.map((s) => [s.externalId, s.price]))).toEqual(byBox);
        const prices = parseFeatureTexts(json).map((f) => f.properties.price as number);
        expect(prices.sort()).toEqual(Object.values(byBox).sort());
        return byBox;
      };
      await store.replacePrices('miteco', 'ES', [
        price('one', 'B7', 1.5, { reportedAt: t(1) }),
        price('two', 'B7', 1.6, { reportedAt: t(1) }),
      ]);
      expect(await read()).toEqual({ one: 1.5, two: 1.6 });
      await store.replacePrices('other', 'ES', [price('one', 'B7', 1.4, { reportedAt: t(2) })]);
      expect(await read()).toEqual({ one: 1.4, two: 1.6 });
      // The newer source withdraws its price: the older one is the newest again.
      await store.replacePrices('other', 'ES', []);
      expect(await read()).toEqual({ one: 1.5, two: 1.6 });
      await store.replacePrices('miteco', 'ES', [price('one', 'B7', 1.3, { reportedAt: t(3) })]);
      expect(await read()).toEqual({ one: 1.3 });
      await store.deleteStationsBySource('miteco', 'ES', { exceptExternalIds: ['two'] });
      expect(await read()).toEqual({});
    });

    it('answers nearest as a scan of every station would: the fuel, the radius, ties, the antimeridian', async () => {
      // 400 stations around a point; only every fifth has B7, so most of the closest lack it; pairs share
      // a point (ties broken by country, then external id); some lie across the antimeridian.
      const next = (() => {
        let a = 7;
        return () => {
          a = (a * 1103515245 + 12345) % 2147483648;
          return a / 2147483648;
        };
      })();
      const around = (centre: LonLat, count: number, prefix: string) =>
        Array.from({ length: count }, (_, i) => ({
          id: `${prefix}${String(i).padStart(3, '0')}`,
          at: destination(centre, next() * 360, next() * 12),
        }));
      const points = [...around([-3.7, 40.4], 300, 'm'), ...around([179.99, -16.5], 100, 'f')];
      const twin = points[10] as { id: string; at: LonLat };
      points.push({ id: 'm010b', at: twin.at }, { id: 'm009z', at: twin.at });
      await store.upsertStations(points.map((p) => station(p.id, p.at)));
      const priced = points.filter((_, i) => i % 5 === 0 || i >= 400);
      await store.replacePrices('miteco', 'ES', [
        ...priced.map((p, i) => price(p.id, 'B7', 1.3 + (i % 7) / 100)),
        ...points.map((p) => price(p.id, 'E5', 1.5)),
      ]);
      const expected = (centre: LonLat, radiusKm: number, limit: number) =>
        priced
          .map((p) => ({ id: p.id, km: greatCircleKm(centre, p.at) }))
          .filter((p) => p.km <= radiusKm)
          .sort((a, b) => a.km - b.km || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
          .slice(0, limit)
          .map((p) => p.id);
      for (const [centre, radiusKm, limit] of [
        [[-3.7, 40.4], 5, 10],
        [[-3.7, 40.4], 12, 50],
        [[-3.65, 40.45], 3, 1],
        [twin.at, 0.5, 3],
        [[-179.995, -16.5], 10, 20],
        [[179.99, -16.5], 20, 100],
      ] as [LonLat, number, number][]) {
        const found = await store.nearestStations({
          lon: centre[0],
          lat: centre[1],
          radiusKm,
          fuel: 'B7',
          limit,
        });
        expect(
          found.map((s) => s.externalId),
          `${centre} ${radiusKm} km`,
        ).toEqual(expected(centre, radiusKm, limit));
        expect(found.every((s) => s.price !== null)).toBe(true);
      }
    });

    it('finds stations within the corridor of a line on the globe, ordered along it', async () => {
      // Oslo to Stockholm: long segments at high latitude, where degrees of longitude are short.
      const line: LonLat[] = [
        [10.75, 59.91],
        [13.5, 59.38],
        [18.07, 59.33],
      ];
      const stations: [string, LonLat, StationType][] = [
        ['near-start', destination(intermediate(line[0] as LonLat, line[1] as LonLat, 0.1), 0, 1), 'fuel'],
        ['mid-north-4km', destination([13.5, 59.38], 0, 4), 'fuel'],
        ['mid-south-6km', destination([13.5, 59.38], 180, 6), 'fuel'],
        ['late', destination(intermediate(line[1] as LonLat, line[2] as LonLat, 0.8), 0, 0.5), 'fuel'],
        [
          'charger',
          destination(intermediate(line[1] as LonLat, line[2] as LonLat, 0.3), 0, 0.2),
          'ev_charger',
        ],
        ['before-start', destination(line[0] as LonLat, 270, 3), 'fuel'],
      ];
      await store.upsertStations(
        stations.map(([id, p, type]) => station(id, p, { country: 'SE', type, source: 'se' })),
      );
      await store.replacePrices(
        'se',
        'SE',
        stations
          .filter(([, , t]) => t === 'fuel')
          .map(([id]) => price(id, 'B7', 19, { country: 'SE', currency: 'SEK' })),
      );
      const result = await stationRows(store).stationsAlongLine({
        line,
        fuel: 'B7',
        corridorKm: 5,
        limit: 100,
      });
      expect(result.truncated).toBe(false);
      expect(result.stations.map((s) => s.externalId)).toEqual([
        'before-start',
        'near-start',
        'mid-north-4km',
        'late',
      ]);
      const fractions = result.stations.map((s) => s.routeFraction);
      expect(fractions[0]).toBe(0);
      expect(fractions[2]).toBeGreaterThan(0.35);
      expect(fractions[2]).toBeLessThan(0.45);
      expect(fractions[3]).toBeGreaterThan(0.85);
      expect(result.stations[2]).toMatchObject({ price: 19, currency: 'SEK' });

      const cut = await stationRows(store).stationsAlongLine({ line, fuel: 'B7', corridorKm: 5, limit: 2 });
      expect(cut.truncated).toBe(true);
      expect(cut.stations.map((s) => s.externalId)).toEqual(['before-start', 'near-start']);

      const ev = await stationRows(store).stationsAlongLine({
        line,
        fuel: 'EV',
        corridorKm: 0.5,
        limit: 100,
      });
      expect(ev.stations.map((s) => [s.externalId, s.price])).toEqual([['charger', null]]);
    });

    it('keeps the first stations along a long line that comes back near itself, as if measured whole', async () => {
      // 600 points east then back west 3 km further north: a station between the two legs is nearer to one
      // of them, possibly the one much later along the line; the limit cuts the search part way.
      const line: LonLat[] = [];
      for (let i = 0; i < 300; i++) line.push([-4 + i * 0.006, 40]);
      for (let i = 299; i >= 0; i--) line.push(destination([-4 + i * 0.006, 40], 0, 3));
      const spots: LonLat[] = [];
      for (let i = 0; i < 120; i++) {
        const along = intermediate([-4, 40], [-4 + 299 * 0.006, 40], ((i * 37) % 120) / 120);
        spots.push(destination(along, 0, (((i * 53) % 100) / 100) * 3.5 - 0.25));
      }
      await store.upsertStations(spots.map((p, i) => station(`r${i}`, p)));
      await store.replacePrices(
        'test',
        'ES',
        spots.map((_, i) => price(`r${i}`, 'B7', 1.5)),
      );
      const prepared = prepareLine(line);
      const total = prepared.cum.at(-1) as number;
      const expected = spots
        .map((p, i) => ({ id: `r${i}`, ...nearestOnLine(prepared, p) }))
        .filter((s) => s.distanceKm <= 1)
        .sort((a, b) => a.alongKm - b.alongKm || (a.id < b.id ? -1 : 1));
      expect(expected.length).toBeGreaterThan(30);
      const cut = await stationRows(store).stationsAlongLine({
        line,
        fuel: 'B7',
        corridorKm: 1,
        limit: 20,
      });
      expect(cut.truncated).toBe(true);
      expect(cut.stations.map((s) => s.externalId)).toEqual(expected.slice(0, 20).map((s) => s.id));
      const whole = await stationRows(store).stationsAlongLine({
        line,
        fuel: 'B7',
        corridorKm: 1,
        limit: 1000,
      });
      expect(whole.truncated).toBe(false);
      expect(whole.stations.map((s) => s.externalId)).toEqual(expected.map((s) => s.id));
      whole.stations.forEach((s, i) => {
        expect(s.routeFraction).toBeCloseTo((expected[i]?.alongKm ?? 0) / total, 6);
      });
    });

    it('finds along a line the stations written, moved and deleted since its last search', async () => {
      const line: LonLat[] = [
        [-4, 40],
        [-3, 40],
      ];
      const on = (fraction: number, northKm: number) =>
        destination(intermediate([-4, 40], [-3, 40], fraction), 0, northKm);
      const along = async () =>
        (
          await stationRows(store).stationsAlongLine({ line, fuel: 'B7', corridorKm: 2, limit: 100 })
        ).stations.map((s) => s.externalId);
      const features = async () =>
        parseFeatureTexts(
          await store.stationFeaturesAlongLine({ line, fuel: 'B7', corridorKm: 2, limit: 100 }),
        ).map((f) => f.properties.externalId as string);
      await store.upsertStations([station('a', on(0.2, 1)), station('b', on(0.5, 1))]);
      await store.replacePrices('miteco', 'ES', [price('a', 'B7', 1.5), price('b', 'B7', 1.5)]);
      expect(await along()).toEqual(['a', 'b']);
      expect(await features()).toEqual(['a', 'b']);

      // b moves 30 km away, c is new; then the source drops a.
      await store.upsertStations([station('b', on(0.5, 30)), station('c', on(0.8, -1))]);
      await store.replacePrices(
        'miteco',
        'ES',
        ['a', 'b', 'c'].map((id) => price(id, 'B7', 1.5)),
      );
      expect(await along()).toEqual(['a', 'c']);
      expect(await features()).toEqual(['a', 'c']);
      await store.deleteStationsBySource('miteco', 'ES');
      await store.upsertStations([station('d', on(0.1, 0.5), { source: 'other' })]);
      await store.replacePrices('other', 'ES', [price('d', 'B7', 1.5)]);
      expect(await along()).toEqual(['d']);
      expect(await features()).toEqual(['d']);
    });

    it('counts stations and prices per country, most stations first', async () => {
      await store.upsertStations([
        station('1', MADRID),
        station('2', MADRID),
        station('1', [-9.1, 38.7], { country: 'PT' }),
        station('u1', [-122.4, 37.8], { country: 'US', type: 'ev_charger', source: 'ocm' }),
        station('u2', [-122.4, 37.8], { country: 'US', type: 'ev_charger', source: 'ocm' }),
        station('u3', [-122.4, 37.8], { country: 'US', type: 'ev_charger', source: 'ocm' }),
      ]);
      await store.replacePrices('miteco', 'ES', [
        price('1', 'B7', 1.4, { reportedAt: at('2026-05-01T06:00:00Z') }),
        price('1', 'E5', 1.5, { reportedAt: at('2026-05-01T07:00:00Z') }),
        price('2', 'B7', 1.4, { reportedAt: at('2026-05-01T05:00:00Z') }),
      ]);
      await store.replacePrices('dgeg', 'PT', [
        price('1', 'B7', 1.7, { country: 'PT', reportedAt: at('2026-05-02T00:00:00Z') }),
      ]);
      expect(await store.stats()).toEqual({
        totals: { stations: 6, prices: 4 },
        countries: [
          { code: 'US', stations: 3, prices: 0, lastUpdate: null },
          { code: 'ES', stations: 2, prices: 3, lastUpdate: at('2026-05-01T07:00:00Z') },
          { code: 'PT', stations: 1, prices: 1, lastUpdate: at('2026-05-02T00:00:00Z') },
        ],
      });
    });

    it('answers a ping, and rejects once closed', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
      await store.close();
      await expect(store.stats()).rejects.toThrow();
      await expect(store.ping()).rejects.toThrow();
    });
  });
}
