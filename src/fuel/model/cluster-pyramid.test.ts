import { describe, expect, it } from 'vitest';
import { clusterStations as stationsOf } from '../testing/cluster-stations';
import { buildClusterLevels, type ClusterStations } from './cluster-pyramid';
import { CELL_BITS, medianOfSorted, UNIT_BITS } from './tiles';

/** The clusters of a zoom, station by station: what a live tile computes. */
function naive(stations: ClusterStations, z: number) {
  const shift = UNIT_BITS - z - CELL_BITS;
  const cells = new Map<
    string,
    { count: number; sx: number; sy: number; prices: number[]; currencies: Set<number> }
  >();
  stations.ux.forEach((ux, s) => {
    const key = `${ux >>> shift}/${(stations.uy[s] as number) >>> shift}`;
    const cell = cells.get(key) ?? { count: 0, sx: 0, sy: 0, prices: [], currencies: new Set<number>() };
    cells.set(key, cell);
    cell.count++;
    cell.sx += ux;
    cell.sy += stations.uy[s] as number;
    const price = stations.price[s] as number;
    if (!Number.isNaN(price)) cell.prices.push(price);
    if ((stations.currency[s] as number) >= 0) cell.currencies.add(stations.currency[s] as number);
  });
  return new Map(
    [...cells].map(([key, cell]) => {
      const sorted = cell.prices.sort((a, b) => a - b);
      return [
        key,
        {
          count: cell.count,
          sumUx: cell.sx,
          sumUy: cell.sy,
          cheapest: sorted[0] ?? Number.NaN,
          median: medianOfSorted(sorted) ?? Number.NaN,
          currency: cell.currencies.size === 1 ? ([...cell.currencies][0] as number) : -1,
        },
      ];
    }),
  );
}

describe('buildClusterLevels', () => {
  it('holds, for every zoom, exactly the clusters computed station by station', () => {
    const stations = stationsOf(5000, 7);
    const levels = buildClusterLevels(stations, 9);
    expect(levels.map((l) => l.z)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const level of levels) {
      const want = naive(stations, level.z);
      expect(level.size, `zoom ${level.z}`).toBe(want.size);
      for (let c = 0; c < level.size; c++) {
        const cell = want.get(`${level.cx[c]}/${level.cy[c]}`);
        expect(cell, `zoom ${level.z} cell ${c}`).toBeDefined();
        expect({
          count: level.count[c],
          sumUx: level.sumUx[c],
          sumUy: level.sumUy[c],
          cheapest: level.cheapest[c],
          median: level.median[c],
          currency: level.currency[c],
        }).toEqual(cell);
      }
    }
    // Mixed currencies somewhere, an even count with a mean of two middles somewhere.
    const world = levels[0];
    expect(world?.currency[0]).toBe(-1);
    expect(levels.some((l) => [...l.median].some((m) => Math.round(m * 1000) % 10 === 5))).toBe(true);
  });

  it('counts charge points without prices, and an empty fuel has no cells', () => {
    const stations = stationsOf(300, 3);
    stations.price.fill(Number.NaN);
    stations.currency.fill(-1);
    const [world] = buildClusterLevels(stations, 4);
    expect([...(world?.count ?? [])].reduce((a, b) => a + b, 0)).toBe(300);
    expect([...(world?.cheapest ?? [])].every(Number.isNaN)).toBe(true);
    const none = buildClusterLevels({ ...stationsOf(0, 1) }, 4);
    expect(none.map((l) => l.size)).toEqual([0, 0, 0, 0, 0]);
  });
});
