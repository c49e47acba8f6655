import { describe, expect, it } from 'vitest';
import { clusterStations as stationsOf } from '../testing/cluster-stations';
import { CellTally, POINTS_ZOOM, packPoints, pointsKey, pointsKeyRange, tallyPoints } from './tile-points';
import { UNIT_BITS } from './tiles';

/** A tile's clusters counted from the stations themselves, as the live tile counts them. */
function direct(stations: ReturnType<typeof stationsOf>, z: number, x: number, y: number) {
  const tally = new CellTally(z, x, y);
  stations.ux.forEach((ux, s) => {
    const price = stations.price[s] as number;
    const currency = stations.currency[s] as number;
    tally.add(
      ux,
      stations.uy[s] as number,
      Number.isNaN(price) ? null : price,
      currency < 0 ? null : (stations.currencies[currency] as string),
    );
  });
  return tally.result();
}

describe('the packed stations of the middle zooms', () => {
  const stations = stationsOf(4_000, 13);
  const rows = [...packPoints(stations)];

  it('keep every station once, in rows of distinct keys in order', () => {
    expect(rows.reduce((sum, row) => sum + row.points.byteLength / 13, 0)).toBe(4_000);
    const keys = rows.map((row) => row.key);
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('give every tile of zooms 10-13 the clusters counted from the stations themselves', () => {
    const shift = UNIT_BITS - POINTS_ZOOM;
    const currencies = new Set<string | null>();
    for (const z of [10, 11, 12, 13]) {
      const tiles = new Map<string, [number, number]>();
      stations.ux.forEach((ux, s) => {
        const t: [number, number] = [ux >>> (UNIT_BITS - z), (stations.uy[s] as number) >>> (UNIT_BITS - z)];
        tiles.set(t.join('/'), t);
      });
      for (const [x, y] of tiles.values()) {
        const [from, to] = pointsKeyRange(z, x, y);
        const tally = new CellTally(z, x, y);
        const under = rows.filter((row) => row.key >= from && row.key < to);
        for (const row of under) tallyPoints(tally, row);
        const cells = tally.result();
        expect(cells, `${z}/${x}/${y}`).toEqual(direct(stations, z, x, y));
        for (const cell of cells) currencies.add(cell.currency);
        // The rows in the range are exactly those of the tile's zoom-13 tiles.
        const inside = new Set<number>();
        stations.ux.forEach((ux, s) => {
          const [tx, ty] = [ux >>> shift, (stations.uy[s] as number) >>> shift];
          if (tx >>> (POINTS_ZOOM - z) === x && ty >>> (POINTS_ZOOM - z) === y) inside.add(pointsKey(tx, ty));
        });
        expect(new Set(under.map((row) => row.key))).toEqual(inside);
      }
    }
    // Cells in francs, in euros, and of charge points only (no currency) among them.
    expect(currencies).toEqual(new Set(['EUR', 'CHF', null]));
  });

  it('give the whole world, every row added, the clusters counted from the stations', () => {
    const tally = new CellTally(0, 0, 0);
    for (const row of rows) tallyPoints(tally, row);
    expect(tally.result()).toEqual(direct(stations, 0, 0, 0));
  });
});
