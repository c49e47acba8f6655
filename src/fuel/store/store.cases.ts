/**
 * The one store suite, as cases every backend's test file runs (sqlite/sqlite.test.ts,
 * postgres/postgres.test.ts): each case on a new, empty store of that backend. A backend leaves a case out
 * only by naming it in `skip` with its reason.
 */
import { afterEach, beforeEach, describe, expect } from 'vitest';
import { type CaseSkips, sharedCases } from '../../common/testing/cases';
import { destination, intermediate } from '../geo/sphere';
import { type OpenedTestStore, type OpenedTestStores, stationRows } from '../testing/stores';
import { price, type StoreUnderTest, station } from './cases/common';
import { historyCases } from './cases/history.cases';
import { readsCases } from './cases/reads.cases';
import { tilesCases } from './cases/tiles.cases';
import { writesCases } from './cases/writes.cases';
import type { LonLat, StoreBackend } from './store';

export interface StoreCaseOptions {
  /** A new, empty, migrated store. */
  open: () => Promise<OpenedTestStore>;
  /** Two stores on one new database. */
  openShared: () => Promise<OpenedTestStores>;
  /** Cases (by name) this backend does not run, each with the reason it gives. */
  skip?: CaseSkips;
}

export function fuelStoreCases(backend: StoreBackend, options: StoreCaseOptions): void {
  const it = sharedCases(`the ${backend} store suite`, options.skip);

  describe(`FuelStore on ${backend}`, () => {
    let opened: OpenedTestStore;
    const under = {} as StoreUnderTest;

    beforeEach(async () => {
      opened = await options.open();
      under.store = opened.store;
    });
    afterEach(async () => {
      await opened.dispose();
    });

    writesCases(it, under);
    historyCases(it, under);
    readsCases(it, under);
    tilesCases(it, under);
  });

  describe(`two FuelStores on one ${backend} database`, () => {
    it('each finds along a line the stations the other wrote since its last search', async () => {
      const opened = await options.openShared();
      try {
        const [reader, writer] = opened.stores;
        const line: LonLat[] = [
          [-4, 40],
          [-3, 40],
        ];
        const on = (fraction: number) => destination(intermediate([-4, 40], [-3, 40], fraction), 0, 1);
        const along = async () =>
          (
            await stationRows(reader).stationsAlongLine({ line, fuel: 'B7', corridorKm: 2, limit: 100 })
          ).stations.map((s) => s.externalId);
        expect(await along()).toEqual([]);
        await writer.upsertStations([station('a', on(0.2)), station('b', on(0.6))]);
        await writer.replacePrices('miteco', 'ES', [price('a', 'B7', 1.5), price('b', 'B7', 1.5)]);
        expect(await along()).toEqual(['a', 'b']);
        await writer.upsertStations([station('c', on(0.4))]);
        await writer.replacePrices(
          'miteco',
          'ES',
          ['a', 'b', 'c'].map((id) => price(id, 'B7', 1.5)),
        );
        expect(await along()).toEqual(['a', 'c', 'b']);
        await writer.deleteStationsBySource('miteco', 'ES');
        expect(await along()).toEqual([]);
      } finally {
        await opened.dispose();
      }
    });
  });
}
