/**
 * The middle zooms' clusters (tile zooms PYRAMID_MAX_ZOOM + 1 .. STREET_ZOOM - 1), from a compact copy of
 * a fuel's stations kept beside the cluster table. A zoom-10 tile of a dense city covers hundreds of
 * thousands of stations: read from the stations, each through the spatial index, its station table and its
 * price, such a tile took 0.5-2 s at 10,000,000 stations (scripts/bench/README.md, fuel tiles). A further
 * zoom of the cluster table would double its cells each time; instead every zoom-13 tile holding stations
 * of the fuel keeps them as one packed row (their units within the tile, price and currency), and a tile
 * of zooms 10-13 reads the 1-64 rows under it, in one range of their keys, and groups them as the live
 * tile does (CellTally), so its clusters are the live ones exactly.
 */
import type { ClusterStations } from './cluster-pyramid';
import { CELL_BITS, CLUSTER_GRID, medianOfSorted, UNIT_BITS } from './tiles';

/** The zoom of the tiles whose stations one row keeps. */
export const POINTS_ZOOM = 13;
/** Units a side of a POINTS_ZOOM tile (a station's offset in it fits 16 bits). */
const POINTS_TILE_UNITS = 2 ** (UNIT_BITS - POINTS_ZOOM);
/** The currency byte of a station without one. */
const NO_CURRENCY = 255;

/** One cluster of a tile: its cell of the grid, its stations' count and units' sums, and their prices. */
export interface ClusterCell {
  cell: number;
  count: number;
  sumUx: number;
  sumUy: number;
  cheapest: number | null;
  median: number | null;
  currency: string | null;
}

/**
 * A tile's clusters, station by station: the stations outside the tile are left out, the others counted
 * into their cell. Every store's tile computed from stations goes through it, so that any two ways of
 * reading a tile's stations give the same clusters in any order.
 */
export class CellTally {
  private readonly tileShift: number;
  private readonly cellShift: number;
  private readonly cells = new Map<
    number,
    { cell: ClusterCell; prices: number[]; currency: string | null | undefined }
  >();

  constructor(
    readonly z: number,
    readonly x: number,
    readonly y: number,
  ) {
    this.tileShift = UNIT_BITS - z;
    this.cellShift = this.tileShift - CELL_BITS;
  }

  add(ux: number, uy: number, price: number | null, currency: string | null): void {
    if (ux >>> this.tileShift !== this.x || uy >>> this.tileShift !== this.y) return;
    const key =
      ((uy >>> this.cellShift) & (CLUSTER_GRID - 1)) * CLUSTER_GRID +
      ((ux >>> this.cellShift) & (CLUSTER_GRID - 1));
    let found = this.cells.get(key);
    if (!found) {
      const cell = { cell: key, count: 0, sumUx: 0, sumUy: 0, cheapest: null, median: null, currency: null };
      found = { cell, prices: [], currency: undefined };
      this.cells.set(key, found);
    }
    found.cell.count++;
    found.cell.sumUx += ux;
    found.cell.sumUy += uy;
    if (price !== null) found.prices.push(price);
    if (currency !== null)
      found.currency = found.currency === undefined || found.currency === currency ? currency : null;
  }

  /** The cells, in grid order, with the cheapest and median of their prices. */
  result(): ClusterCell[] {
    return [...this.cells.keys()]
      .sort((a, b) => a - b)
      .map((key) => {
        const { cell, prices, currency } = this.cells.get(key) as {
          cell: ClusterCell;
          prices: number[];
          currency: string | null | undefined;
        };
        prices.sort((a, b) => a - b);
        cell.cheapest = prices[0] ?? null;
        cell.median = medianOfSorted(prices);
        cell.currency = currency ?? null;
        return cell;
      });
  }
}

/** A POINTS_ZOOM tile's key: its column's and row's bits interleaved, so a tile's descendants are one range. */
export function pointsKey(tx: number, ty: number): number {
  let key = 0;
  for (let bit = POINTS_ZOOM - 1; bit >= 0; bit--) {
    key = key * 4 + ((ty >>> bit) & 1) * 2 + ((tx >>> bit) & 1);
  }
  return key;
}

/** The keys of the rows under a tile of zoom PYRAMID_MAX_ZOOM < z <= POINTS_ZOOM: from, to (exclusive). */
export function pointsKeyRange(z: number, x: number, y: number): [number, number] {
  const span = 4 ** (POINTS_ZOOM - z);
  const first = pointsKey(x * 2 ** (POINTS_ZOOM - z), y * 2 ** (POINTS_ZOOM - z));
  return [first, first + span];
}

/** One row: a POINTS_ZOOM tile's stations of a fuel, packed (see packPoints). */
export interface PointsRow {
  key: number;
  /** The row's currencies; a station's currency byte indexes them. */
  currencies: string[];
  points: Uint8Array;
}

/**
 * A fuel's stations as rows, one per POINTS_ZOOM tile holding any, in key order. A row's stations are
 * packed little-endian, column by column: their prices (float64, NaN for none), their units east of the
 * tile's west edge (uint16), south of its north edge (uint16), and their currencies (a byte, 255 for none).
 *
 * The stations are sorted into their tiles here, at the call; each row is packed only when the rows are
 * walked, so a writer can sort before it takes its write lock without holding every row at once (at
 * 9,000,000 stations the 615,000 rows took 450 MB).
 */
export function packPoints(stations: ClusterStations): Generator<PointsRow> {
  const n = stations.ux.length;
  const shift = UNIT_BITS - POINTS_ZOOM;
  // Key and index in one double (a key has 2 * POINTS_ZOOM bits): one numeric sort groups the stations.
  const indexBits = Math.max(1, Math.ceil(Math.log2(n + 1)));
  if (2 * POINTS_ZOOM + indexBits > 53) throw new Error(`too many stations to pack: ${n}`);
  const scale = 2 ** indexBits;
  const order = new Float64Array(n);
  for (let s = 0; s < n; s++) {
    order[s] =
      pointsKey((stations.ux[s] as number) >>> shift, (stations.uy[s] as number) >>> shift) * scale + s;
  }
  order.sort();
  return packSorted(stations, order, scale);
}

function* packSorted(stations: ClusterStations, order: Float64Array, scale: number): Generator<PointsRow> {
  const n = order.length;
  for (let start = 0; start < n; ) {
    const key = Math.floor((order[start] as number) / scale);
    let end = start + 1;
    while (end < n && Math.floor((order[end] as number) / scale) === key) end++;
    const count = end - start;
    const bytes = new Uint8Array(count * 13);
    const view = new DataView(bytes.buffer);
    const currencies: string[] = [];
    const byCurrency = new Map<number, number>();
    for (let i = 0; i < count; i++) {
      const s = (order[start + i] as number) % scale;
      view.setFloat64(i * 8, stations.price[s] as number, true);
      view.setUint16(count * 8 + i * 2, (stations.ux[s] as number) % POINTS_TILE_UNITS, true);
      view.setUint16(count * 10 + i * 2, (stations.uy[s] as number) % POINTS_TILE_UNITS, true);
      const currency = stations.currency[s] as number;
      let code = NO_CURRENCY;
      if (currency >= 0) {
        if (!byCurrency.has(currency)) {
          if (currencies.length === NO_CURRENCY) throw new Error('more than 255 currencies in one tile');
          byCurrency.set(currency, currencies.length);
          currencies.push(stations.currencies[currency] as string);
        }
        code = byCurrency.get(currency) as number;
      }
      bytes[count * 12 + i] = code;
    }
    yield { key, currencies, points: bytes };
    start = end;
  }
}

/** The POINTS_ZOOM tile of a key. */
function tileOfKey(key: number): [number, number] {
  let tx = 0;
  let ty = 0;
  for (let bit = 0; bit < POINTS_ZOOM; bit++) {
    const pair = Math.floor(key / 4 ** bit) % 4;
    tx += (pair & 1) * 2 ** bit;
    ty += ((pair >> 1) & 1) * 2 ** bit;
  }
  return [tx, ty];
}

/** Adds a row's stations to a tally. */
export function tallyPoints(tally: CellTally, row: PointsRow): void {
  const { points } = row;
  const count = points.byteLength / 13;
  const view = new DataView(points.buffer, points.byteOffset, points.byteLength);
  const [tx, ty] = tileOfKey(row.key);
  const west = tx * POINTS_TILE_UNITS;
  const north = ty * POINTS_TILE_UNITS;
  for (let i = 0; i < count; i++) {
    const price = view.getFloat64(i * 8, true);
    const code = points[count * 12 + i] as number;
    tally.add(
      west + view.getUint16(count * 8 + i * 2, true),
      north + view.getUint16(count * 10 + i * 2, true),
      Number.isNaN(price) ? null : price,
      code === NO_CURRENCY ? null : (row.currencies[code] ?? null),
    );
  }
}
