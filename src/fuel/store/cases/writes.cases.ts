/** Writes: stations and prices, by source and country, and what each replaces. */
import { beforeEach, describe, expect } from 'vitest';
import { stationFeature } from '../../domain/features';
import { parseFeatureTexts } from '../../testing/json';
import { stationRows } from '../../testing/stores';
import { inSampleKeyOrder } from '../input';
import { sampleKey, stationIdOf } from '../sample-key';
import type { FuelStore, PriceInput, PriceList, StationInput } from '../store';
import { at, type CaseIt, MADRID, price, type StoreUnderTest, station } from './common';

export function writesCases(it: CaseIt, under: StoreUnderTest): void {
  let store: FuelStore;
  beforeEach(() => {
    store = under.store;
  });

  describe('writes', () => {
    it('upserts stations by externalId + country, keeping the id and recording the last source', async () => {
      const first = await store.upsertStations([
        station('1', MADRID),
        station('1', MADRID, { country: 'PT', source: 'dgeg' }),
        station('2', [-3.7, 40.42]),
      ]);
      expect(first).toEqual({ count: 3, failedBatches: [] });
      await store.replacePrices('miteco', 'ES', [price('1', 'B7', 1.4)]);
      await store.replacePrices('dgeg', 'PT', [price('1', 'B7', 1.6, { country: 'PT' })]);
      const both = await stationRows(store).stationsInBox({
        bbox: [-4, 40, -3, 41],
        fuel: 'B7',
        limit: 10,
      });
      const id = both.stations.find((s) => s.country === 'ES')?.id;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(both.stations.find((s) => s.country === 'PT')?.id).not.toBe(id);

      const second = await store.upsertStations([
        station('1', [-3.71, 40.41], { name: 'Renamed', source: 'other' }),
      ]);
      expect(second).toEqual({ count: 1, failedBatches: [] });
      expect(await store.countStationsBySource('other', 'ES')).toBe(1);
      expect(await store.countStationsBySource('miteco', 'ES')).toBe(1);

      const { stations } = await stationRows(store).stationsInBox({
        bbox: [-4, 40, -3, 41],
        fuel: 'EV',
        limit: 10,
      });
      expect(stations).toEqual([]);
      await store.replacePrices('other', 'ES', [price('1', 'B7', 1.5)]);
      const found = await stationRows(store).stationsInBox({
        bbox: [-4, 40, -3, 41],
        fuel: 'B7',
        limit: 10,
      });
      expect(found.stations.filter((s) => s.country === 'ES')).toMatchObject([
        { id, name: 'Renamed', lon: -3.71, lat: 40.41 },
      ]);
    });

    it('gives a new station an id that begins with its sample key, on either backend', async () => {
      // The layout PostgreSQL's fuel_station_id writes (its migration 003), from one random UUID.
      expect(stationIdOf(0x1234abc, '01234567-89ab-4cde-9f01-23456789abcd')).toBe(
        '01234abc-89ab-8cde-9f01-23456789abcd',
      );
      const ids = ['1', '2', 'a-long-external-id', 'ñ'];
      await store.upsertStations(ids.map((id, i) => station(id, [-3.7 + i / 100, 40.4])));
      await store.replacePrices(
        'miteco',
        'ES',
        ids.map((id) => price(id, 'B7', 1.4)),
      );
      const { stations } = await stationRows(store).stationsInBox({
        bbox: [-4, 40, -3, 41],
        fuel: 'B7',
        limit: 10,
      });
      expect(stations).toHaveLength(ids.length);
      for (const s of stations) {
        expect(s.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(s.id.slice(0, 8)).toBe(sampleKey('ES', s.externalId).toString(16).padStart(8, '0'));
      }
      expect(new Set(stations.map((s) => s.id)).size).toBe(ids.length);
    });

    it('writes a change to any one field of a station, and keeps a station given as it is', async () => {
      const base = station('1', MADRID, { type: 'both', powerKw: 22 });
      await store.upsertStations([base]);
      await store.replacePrices('miteco', 'ES', [price('1', 'B7', 1.4)]);
      const read = async () => {
        const { stations } = await stationRows(store).stationsInBox({
          bbox: [-10, 35, 5, 45],
          fuel: 'EV',
          limit: 10,
        });
        const row = stations[0];
        return (
          row && { ...row, source: (await store.countStationsBySource('other', 'ES')) ? 'other' : 'miteco' }
        );
      };
      const before = await read();
      expect(await store.upsertStations([base])).toEqual({ count: 1, failedBatches: [] });
      expect(await read()).toEqual(before);
      const changes: Partial<StationInput>[] = [
        { name: 'New name' },
        { brand: null },
        { brand: 'Cepsa' },
        { address: 'Calle Nueva 1' },
        { city: 'Getafe' },
        { lon: -3.75 },
        { lat: 40.3 },
        { powerKw: 50 },
        { powerKw: null },
        { type: 'ev_charger' },
        { source: 'other' },
      ];
      let current = base;
      for (const change of changes) {
        current = { ...current, ...change };
        expect(await store.upsertStations([current])).toEqual({ count: 1, failedBatches: [] });
        expect(await read()).toMatchObject({
          id: before?.id,
          name: current.name,
          brand: current.brand,
          address: current.address,
          city: current.city,
          lon: current.lon,
          lat: current.lat,
          powerKw: current.powerKw ?? null,
          type: current.type,
          source: current.source,
        });
        // The Feature text the map reads is written again with the station.
        const { stations } = await stationRows(store).stationsInBox({
          bbox: [-10, 35, 5, 45],
          fuel: 'EV',
          limit: 10,
        });
        const texts = await store.stationFeaturesInBox({ bbox: [-10, 35, 5, 45], fuel: 'EV', limit: 10 });
        expect(parseFeatureTexts(texts)).toEqual(stations.map((row) => stationFeature(row, 'EV')));
      }
    });

    it('lets the later of two listings in different batches win', async () => {
      const result = await store.upsertStations(
        [
          station('7', MADRID, { name: 'first' }),
          station('8', MADRID),
          station('7', MADRID, { name: 'last' }),
        ],
        { batchSize: 1 },
      );
      expect(result.failedBatches).toEqual([]);
      await store.replacePrices('miteco', 'ES', [price('7', 'E5', 1.6)]);
      const { stations } = await stationRows(store).stationsInBox({
        bbox: [-4, 40, -3, 41],
        fuel: 'E5',
        limit: 10,
      });
      expect(stations.map((s) => s.name)).toEqual(['last']);
    });

    it('collapses duplicates in the input to their last occurrence', async () => {
      const result = await store.upsertStations([
        station('7', MADRID, { name: 'first' }),
        station('7', MADRID, { name: 'last' }),
      ]);
      expect(result.count).toBe(1);
      await store.replacePrices('miteco', 'ES', [price('7', 'E5', 1.6)]);
      const { stations } = await stationRows(store).stationsInBox({
        bbox: [-4, 40, -3, 41],
        fuel: 'E5',
        limit: 10,
      });
      expect(stations.map((s) => s.name)).toEqual(['last']);
    });

    it('reports a failed batch and still writes the others', async () => {
      const input = [
        station('a', MADRID),
        station('b', MADRID),
        station('c', [-3.7, 200]),
        station('d', MADRID),
        station('e', MADRID),
      ];
      const result = await store.upsertStations(input, { batchSize: 2 });
      // Batches of two in the order the store writes: the batch holding the invalid station fails whole.
      const order = inSampleKeyOrder(input).map((s) => s.externalId);
      const offset = order.indexOf('c') - (order.indexOf('c') % 2);
      const failed = order.slice(offset, offset + 2);
      expect(result.count).toBe(5 - failed.length);
      expect(result.failedBatches).toHaveLength(1);
      expect(result.failedBatches[0]).toMatchObject({ offset, size: failed.length });
      expect(result.failedBatches[0]?.message).toBeTruthy();
      for (const id of order) expect(await store.hasStation('ES', id), id).toBe(!failed.includes(id));
    });

    it('orders stations by sample key, the later listing of one station winning', async () => {
      const ids = Array.from({ length: 12 }, (_, i) => `k${i}`);
      const input = [...ids.map((id) => station(id, MADRID)), station('k3', MADRID, { name: 'again' })];
      expect(inSampleKeyOrder(input).map((s) => s.externalId)).toEqual(
        [...input.map((s) => s.externalId)].sort(
          (a, b) =>
            sampleKey('ES', a) - sampleKey('ES', b) ||
            input.findIndex((s) => s.externalId === a) - input.findIndex((s) => s.externalId === b),
        ),
      );
      expect((await store.upsertStations(input, { batchSize: 1 })).count).toBe(13);
      await store.replacePrices('miteco', 'ES', [price('k3', 'E5', 1.6)]);
      const { stations } = await stationRows(store).stationsInBox({
        bbox: [-4, 40, -3, 41],
        fuel: 'E5',
        limit: 10,
      });
      expect(stations.map((s) => s.name)).toEqual(['again']);
    });

    it("replaces only one source's prices of one country", async () => {
      await store.upsertStations([
        station('1', MADRID),
        station('2', [-3.7, 40.42]),
        station('1', [-9.14, 38.72], { country: 'PT', source: 'dgeg' }),
      ]);
      await store.replacePrices('miteco', 'ES', [price('1', 'B7', 1.4), price('2', 'B7', 1.5)]);
      await store.replacePrices('other', 'ES', [price('2', 'E5', 1.7)]);
      await store.replacePrices('miteco', 'PT', [price('1', 'B7', 1.8, { country: 'PT' })]);

      const result = await store.replacePrices('miteco', 'ES', [
        price('1', 'B7', 1.3),
        price('missing', 'B7', 1.3),
        price('1', 'B7', 1.2, { country: 'PT' }),
      ]);
      expect(result).toEqual({ inserted: 1, skipped: 2, deleted: 2 });

      const stats = await store.stats();
      expect(stats.totals).toEqual({ stations: 3, prices: 3 });
      const e5 = await stationRows(store).stationsInBox({ bbox: [-10, 38, -3, 41], fuel: 'E5', limit: 10 });
      expect(e5.stations.map((s) => [s.externalId, s.price])).toEqual([['2', 1.7]]);
      const b7 = await stationRows(store).stationsInBox({ bbox: [-10, 38, -3, 41], fuel: 'B7', limit: 10 });
      expect(b7.stations.map((s) => [s.country, s.price]).sort()).toEqual([
        ['ES', 1.3],
        ['PT', 1.8],
      ]);
    });

    /** The same prices as a list, or handed out one at a time as new objects (the pipeline's columns). */
    const handouts = {
      'given as a list': (list: PriceInput[]): PriceList => list,
      'handed out one at a time': (list: PriceInput[]): PriceList => ({
        length: list.length,
        at: (i: number) => (list[i] ? { ...list[i] } : undefined),
      }),
    };
    for (const handout of Object.keys(handouts) as (keyof typeof handouts)[])
      it(`replaces prices kept, retimed, changed, withdrawn and new, with a repeated key in order, ${handout}`, async () => {
        const given = handouts[handout];
        await store.upsertStations([station('a', MADRID), station('b', [-3.7, 40.42])]);
        const t = (day: number) => at(`2026-06-0${day}T06:00:00Z`);
        await store.replacePrices(
          'miteco',
          'ES',
          given([
            price('a', 'B7', 1.4, { reportedAt: t(1) }),
            price('a', 'E5', 1.5, { reportedAt: t(1) }),
            price('a', 'E10', 1.45, { reportedAt: t(1) }),
            price('b', 'LPG', 0.9, { reportedAt: t(1) }),
            // The same key twice at the same time: the last one given is the newest.
            price('b', 'B7', 1.3, { reportedAt: t(1) }),
            price('b', 'B7', 1.35, { reportedAt: t(1) }),
          ]),
        );
        const second = given([
          price('a', 'B7', 1.4, { reportedAt: t(1) }),
          price('a', 'E5', 1.5, { reportedAt: t(2) }),
          price('a', 'E10', 1.49, { reportedAt: t(2) }),
          price('a', 'LPG', 0.95, { reportedAt: t(2) }),
          price('b', 'B7', 1.36, { reportedAt: t(2) }),
          price('b', 'B7', 1.31, { reportedAt: t(2) }),
        ]);
        const result = await store.replacePrices('miteco', 'ES', second);
        expect(result).toEqual({ inserted: 6, skipped: 0, deleted: 6 });
        const read = async (fuel: string) =>
          (await stationRows(store).stationsInBox({ bbox: [-4, 40, -3, 41], fuel, limit: 10 })).stations
            .map((s) => [s.externalId, s.price, s.reportedAt?.toISOString().slice(0, 10)])
            .sort();
        expect(await read('B7')).toEqual([
          ['a', 1.4, '2026-06-01'],
          ['b', 1.31, '2026-06-02'],
        ]);
        expect(await read('E5')).toEqual([['a', 1.5, '2026-06-02']]);
        expect(await read('E10')).toEqual([['a', 1.49, '2026-06-02']]);
        expect(await read('LPG')).toEqual([['a', 0.95, '2026-06-02']]);
        expect((await store.stats()).totals).toEqual({ stations: 2, prices: 6 });
        // A change of time alone is no price change; b's B7 changed (both rows of the key did).
        const changes = async (fuel: string) =>
          (await store.priceHistory({ country: 'ES', fuel, since: at('2000-01-01T00:00:00Z') })).map((r) => [
            r.externalId,
            r.price,
          ]);
        expect(await changes('E5')).toEqual([['a', 1.5]]);
        expect(await changes('E10')).toEqual([
          ['a', 1.45],
          ['a', 1.49],
        ]);
        expect(await changes('LPG')).toEqual([
          ['a', 0.95],
          ['b', 0.9],
        ]);
        expect((await changes('B7')).filter(([id]) => id === 'b')).toHaveLength(4);
        // The same answer again changes nothing, and reads the same.
        const before = await store.stationFeaturesInBox({ bbox: [-4, 40, -3, 41], fuel: 'B7', limit: 10 });
        await store.replacePrices('miteco', 'ES', second);
        expect(await store.stationFeaturesInBox({ bbox: [-4, 40, -3, 41], fuel: 'B7', limit: 10 })).toEqual(
          before,
        );
        expect(await changes('E10')).toHaveLength(2);
      });

    it('matches previous prices of stations whose ids hold tabs, line breaks, backslashes and other scripts', async () => {
      const ids = ['tab\tid', 'line\nid', 'back\\slash', '\\N', 'Ñandú 京都', 'plain'];
      await store.upsertStations(ids.map((id, i) => station(id, [-3.7 + i * 0.01, 40.4])));
      const replace = (changed: string) =>
        store.replacePrices(
          'miteco',
          'ES',
          ids.map((id, i) => price(id, 'B7', id === changed ? 2 : 1.4 + i / 100)),
        );
      await replace('');
      expect(await replace('\\N')).toEqual({ inserted: 6, skipped: 0, deleted: 6 });
      const history = await store.priceHistory({
        country: 'ES',
        fuel: 'B7',
        since: at('2000-01-01T00:00:00Z'),
      });
      // Each station's first price, then the one change.
      expect(history.map((r) => [r.externalId, r.price]).sort()).toEqual(
        [...ids.map((id, i) => [id, 1.4 + i / 100]), ['\\N', 2]].sort(),
      );
    });

    it('keeps fuels and currencies apart that share no key of their own', async () => {
      // Codes outside the document's list, and more currencies in one replace than have a key of their own.
      const ids = Array.from({ length: 10 }, (_, i) => `s${i}`);
      await store.upsertStations(ids.map((id, i) => station(id, [-3.7 + i * 0.01, 40.4])));
      const currencies = ['EUR', 'GBP', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HUF', 'CHF', 'RON'];
      const replace = (shift: number) =>
        store.replacePrices('miteco', 'ES', [
          ...ids.map((id, i) => price(id, 'XA', 1 + i + shift, { currency: currencies[i] as string })),
          ...ids.map((id, i) => price(id, 'XB', 20 + i + shift, { currency: currencies[i] as string })),
        ]);
      await replace(0);
      await replace(0);
      await replace(0.5);
      for (const [fuel, base] of [
        ['XA', 1.5],
        ['XB', 20.5],
      ] as const) {
        const box = await stationRows(store).stationsInBox({ bbox: [-4, 40, -3, 41], fuel, limit: 20 });
        expect(box.stations.map((s) => [s.externalId, s.price, s.currency]).sort()).toEqual(
          ids.map((id, i) => [id, base + i, currencies[i]]),
        );
      }
      expect((await store.stats()).totals.prices).toBe(20);
    });

    it('keeps the old prices when a replace fails part-way', async () => {
      await store.upsertStations([station('1', MADRID), station('2', [-3.7, 40.42])]);
      await store.replacePrices('miteco', 'ES', [price('1', 'B7', 1.4), price('2', 'B7', 1.5)]);
      await expect(
        store.replacePrices('miteco', 'ES', [price('1', 'B7', 1.1), price('2', 'B7', -1)]),
      ).rejects.toThrow();
      const { stations } = await stationRows(store).stationsInBox({
        bbox: [-4, 40, -3, 41],
        fuel: 'B7',
        limit: 10,
      });
      expect(stations.map((s) => s.price).sort()).toEqual([1.4, 1.5]);
    });

    it('deletes fuel stations no source prices, never EV chargers, only in the country', async () => {
      await store.upsertStations([
        station('priced', MADRID),
        station('orphan', MADRID),
        station('charger', MADRID, { type: 'ev_charger', source: 'ocm' }),
        station('both', MADRID, { type: 'both', source: 'ocm' }),
        station('orphan', MADRID, { country: 'PT' }),
      ]);
      await store.replacePrices('miteco', 'ES', [price('priced', 'B7', 1.4)]);
      expect(await store.deleteOrphanFuelStations('ES')).toBe(1);
      const stats = await store.stats();
      expect(stats.countries).toEqual([
        expect.objectContaining({ code: 'ES', stations: 3 }),
        expect.objectContaining({ code: 'PT', stations: 1 }),
      ]);
      expect(await store.deleteOrphanFuelStations('ES')).toBe(0);
    });

    it('deletes the stations of one source in one country, keeping the ones still listed', async () => {
      await store.upsertStations([
        station('ocm-1', MADRID, { type: 'ev_charger', source: 'ocm' }),
        station('ocm-2', MADRID, { type: 'ev_charger', source: 'ocm' }),
        station('ocm-3', MADRID, { type: 'ev_charger', source: 'ocm' }),
        station('reve-1', MADRID, { type: 'ev_charger', source: 'reve' }),
        station('ocm-1', MADRID, { type: 'ev_charger', source: 'ocm', country: 'PT' }),
      ]);
      expect(await store.countStationsBySource('ocm', 'ES')).toBe(3);
      expect(await store.deleteStationsBySource('ocm', 'ES', { exceptExternalIds: new Set(['ocm-2']) })).toBe(
        2,
      );
      expect(await store.countStationsBySource('ocm', 'ES')).toBe(1);
      expect(await store.deleteStationsBySource('ocm', 'ES')).toBe(1);
      expect(await store.countStationsBySource('ocm', 'ES')).toBe(0);
      expect(await store.countStationsBySource('reve', 'ES')).toBe(1);
      expect(await store.countStationsBySource('ocm', 'PT')).toBe(1);
    });
  });
}
