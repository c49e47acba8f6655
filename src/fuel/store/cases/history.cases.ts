/** Price history: what is recorded as prices change, and what is read back. */
import { beforeEach, describe, expect } from 'vitest';
import { stationRows } from '../../testing/stores';
import type { FuelStore, PriceInput } from '../store';
import { at, type CaseIt, MADRID, price, type StoreUnderTest, station } from './common';

export function historyCases(it: CaseIt, under: StoreUnderTest): void {
  let store: FuelStore;
  beforeEach(() => {
    store = under.store;
  });

  describe('price history', () => {
    const run = (prices: PriceInput[], when: string) =>
      store.replacePrices(
        'miteco',
        'ES',
        prices.map((p) => ({ ...p, reportedAt: at(when) })),
      );

    it('adds one row per change per station and fuel, not one per run, and outlives the station', async () => {
      await store.upsertStations([station('a', MADRID), station('b', MADRID)]);
      await run(
        [price('a', 'B7', 1.5), price('a', 'E5', 1.6), price('b', 'B7', 1.4)],
        '2026-05-01T06:00:00Z',
      );
      await run(
        [price('a', 'B7', 1.5), price('a', 'E5', 1.65), price('b', 'B7', 1.4)],
        '2026-05-02T06:00:00Z',
      );
      await run(
        [price('a', 'B7', 1.5), price('a', 'E5', 1.65), price('b', 'B7', 1.45)],
        '2026-05-03T06:00:00Z',
      );
      // Another source's identical price is still a change of its own.
      await store.replacePrices('other', 'ES', [
        { ...price('a', 'B7', 1.5), reportedAt: at('2026-05-03T07:00:00Z') },
      ]);
      const since = at('2026-01-01T00:00:00Z');
      const rows = await store.priceHistory({ country: 'ES', fuel: 'E5', since });
      expect(rows.map((r) => [r.externalId, r.price, r.changedAt.toISOString()])).toEqual([
        ['a', 1.6, '2026-05-01T06:00:00.000Z'],
        ['a', 1.65, '2026-05-02T06:00:00.000Z'],
      ]);
      const b7 = await store.priceHistory({ country: 'ES', fuel: 'B7', since });
      expect(b7.map((r) => [r.externalId, r.price, r.source])).toEqual([
        ['a', 1.5, 'miteco'],
        ['a', 1.5, 'other'],
        ['b', 1.4, 'miteco'],
        ['b', 1.45, 'miteco'],
      ]);
      const one = await store.priceHistory({ country: 'ES', fuel: 'B7', since, externalId: 'b' });
      expect(one.map((r) => r.price)).toEqual([1.4, 1.45]);
      expect(await store.hasStation('ES', 'b')).toBe(true);
      expect(await store.hasStation('PT', 'b')).toBe(false);
      // The station goes; its history stays, under its durable identity.
      await store.deleteStationsBySource('miteco', 'ES');
      expect(await store.hasStation('ES', 'b')).toBe(false);
      expect(await store.priceHistory({ country: 'ES', fuel: 'B7', since, externalId: 'b' })).toHaveLength(2);
    });

    it('answers a window with the price in force when it opened, and prunes all but that row', async () => {
      await store.upsertStations([station('a', MADRID)]);
      await run([price('a', 'B7', 1.3)], '2026-01-01T06:00:00Z');
      await run([price('a', 'B7', 1.35)], '2026-02-01T06:00:00Z');
      await run([price('a', 'B7', 1.4)], '2026-03-01T06:00:00Z');
      await run([price('a', 'B7', 1.45)], '2026-04-01T06:00:00Z');
      const window = await store.priceHistory({
        country: 'ES',
        fuel: 'B7',
        since: at('2026-02-15T00:00:00Z'),
      });
      expect(window.map((r) => r.price)).toEqual([1.35, 1.4, 1.45]);
      expect(await store.prunePriceHistory('PT', at('2026-03-15T00:00:00Z'))).toBe(0);
      expect(await store.prunePriceHistory('ES', at('2026-03-15T00:00:00Z'))).toBe(2);
      const left = await store.priceHistory({
        country: 'ES',
        fuel: 'B7',
        since: at('2000-01-01T00:00:00Z'),
      });
      expect(left.map((r) => r.price)).toEqual([1.4, 1.45]);
      expect(await store.prunePriceHistory('ES', at('2026-03-15T00:00:00Z'))).toBe(0);
    });

    it('keeps the times of prices and changes to the millisecond, years apart', async () => {
      await store.upsertStations([station('a', MADRID), station('b', MADRID)]);
      const times = [
        new Date(Date.UTC(2026, 4, 12, 6, 30, 12, 345)),
        new Date(Date.UTC(2099, 11, 31, 23, 59, 59, 999)),
      ];
      await store.replacePrices('miteco', 'ES', [
        price('a', 'B7', 1.4, { reportedAt: times[0] }),
        price('b', 'B7', 1.5, { reportedAt: times[1] }),
      ]);
      const { stations } = await stationRows(store).stationsInBox({
        bbox: [-10, 35, 5, 45],
        fuel: 'B7',
        limit: 10,
      });
      expect(stations.map((s) => s.reportedAt?.toISOString()).sort()).toEqual(
        times.map((t) => t.toISOString()),
      );
      const history = await store.priceHistory({
        country: 'ES',
        fuel: 'B7',
        since: at('2000-01-01T00:00:00Z'),
      });
      expect(history.map((r) => r.changedAt.toISOString()).sort()).toEqual(times.map((t) => t.toISOString()));
    });

    it('records the changes of a station whose id holds a tab, a backslash or a line break', async () => {
      const id = 'tab\there back\\slash line\nbreak';
      await store.upsertStations([station(id, MADRID)]);
      await run([price(id, 'B7', 1.4)], '2026-01-01T06:00:00Z');
      await run([price(id, 'B7', 1.45)], '2026-01-02T06:00:00Z');
      const since = at('2000-01-01T00:00:00Z');
      const rows = await store.priceHistory({ country: 'ES', fuel: 'B7', since, externalId: id });
      expect(rows.map((r) => [r.externalId, r.price])).toEqual([
        [id, 1.4],
        [id, 1.45],
      ]);
    });

    it('compares prices exactly: all 17 digits, and the currency with them', async () => {
      await store.upsertStations([station('a', MADRID)]);
      const odd = 0.1 + 0.2 + 1.2345678901234;
      await run([price('a', 'B7', odd), price('a', 'E5', 1.5)], '2026-01-01T06:00:00Z');
      await run([price('a', 'B7', odd), price('a', 'E5', 1.5)], '2026-01-02T06:00:00Z');
      await run(
        [price('a', 'B7', odd + 2 ** -50), price('a', 'E5', 1.5, { currency: 'GBP' })],
        '2026-01-03T06:00:00Z',
      );
      const since = at('2000-01-01T00:00:00Z');
      const b7 = await store.priceHistory({ country: 'ES', fuel: 'B7', since });
      expect(b7.map((r) => [r.price, r.changedAt.toISOString()])).toEqual([
        [odd, '2026-01-01T06:00:00.000Z'],
        [odd + 2 ** -50, '2026-01-03T06:00:00.000Z'],
      ]);
      const e5 = await store.priceHistory({ country: 'ES', fuel: 'E5', since });
      expect(e5.map((r) => r.currency)).toEqual(['EUR', 'GBP']);
    });

    it('records nothing with the history off, still replaces the prices, and deletes the country history', async () => {
      await store.upsertStations([station('a', MADRID), station('p', MADRID, { country: 'PT' })]);
      await run([price('a', 'B7', 1.3)], '2026-01-01T06:00:00Z');
      await store.replacePrices('miteco', 'PT', [
        { ...price('p', 'B7', 1.7, { country: 'PT' }), reportedAt: at('2026-01-01T06:00:00Z') },
      ]);
      const result = await store.replacePrices(
        'miteco',
        'ES',
        [{ ...price('a', 'B7', 1.4), reportedAt: at('2026-01-02T06:00:00Z') }],
        { history: false },
      );
      expect(result).toEqual({ inserted: 1, skipped: 0, deleted: 1 });
      const box = await stationRows(store).stationsInBox({ bbox: [-4, 40, -3, 41], fuel: 'B7', limit: 10 });
      expect(box.stations.map((s) => [s.country, s.price]).sort()).toEqual([
        ['ES', 1.4],
        ['PT', 1.7],
      ]);
      const since = at('2000-01-01T00:00:00Z');
      expect((await store.priceHistory({ country: 'ES', fuel: 'B7', since })).map((r) => r.price)).toEqual([
        1.3,
      ]);
      expect(await store.prunePriceHistory('ES', null)).toBe(1);
      expect(await store.priceHistory({ country: 'ES', fuel: 'B7', since })).toEqual([]);
      expect(await store.priceHistory({ country: 'PT', fuel: 'B7', since })).toHaveLength(1);
    });

    it('writes no history when the price replace fails', async () => {
      await store.upsertStations([station('a', MADRID)]);
      await run([price('a', 'B7', 1.3)], '2026-01-01T06:00:00Z');
      await expect(
        run(
          [price('a', 'B7', 1.4), price('a', 'E5', 1.5, { currency: null as unknown as string })],
          '2026-01-02T06:00:00Z',
        ),
      ).rejects.toThrow();
      const rows = await store.priceHistory({
        country: 'ES',
        fuel: 'B7',
        since: at('2000-01-01T00:00:00Z'),
      });
      expect(rows.map((r) => r.price)).toEqual([1.3]);
    });
  });
}
