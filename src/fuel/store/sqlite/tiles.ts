/**
 * The SQLite store's vector tiles: the tile's stations read through the R*Tree (with their newest price,
 * migration 003), grouped and placed as model/tiles.ts says, and encoded by @maplibre/vt-pbf, the
 * encoder of MapLibre's own project. The PostgreSQL store groups and encodes in the database (ST_AsMVT).
 */
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import {
  CELL_BITS,
  CLUSTER_GRID,
  clusterPlace,
  medianOfSorted,
  placeInTile,
  STREET_ZOOM,
  TILE_EXTENT,
  tileSearchBox,
  UNIT_BITS,
  worldUnits,
} from '../../model/tiles';
import { EV_FUEL, type TileQuery } from '../store';
import { type ClusterCell, tableClusters } from './clusters';
import type { SqliteConnection } from './connection';

type Properties = Record<string, string | number>;
interface Point {
  type: 1;
  geometry: [number, number][];
  tags: Properties;
}

/** The stations of the tile's search box for the fuel: their columns, then the price's three. */
function tileRows(
  c: SqliteConnection,
  { fuel, z, x, y }: TileQuery,
  columns: string,
): IterableIterator<unknown[]> {
  const [minLon, minLat, maxLon, maxLat] = tileSearchBox({ z, x, y });
  const ev = fuel === EV_FUEL;
  return c
    .prepare(
      `SELECT ${columns}, ${ev ? 'NULL, NULL, NULL' : 'p.price, p.currency, p.reported_at'}
       FROM stations_rtree r JOIN stations s ON s.seq = r.seq
       ${ev ? '' : 'JOIN latest_prices p ON p.station_seq = s.seq AND p.fuel = @fuel'}
       WHERE r.max_lon >= @minLon AND r.min_lon <= @maxLon AND r.max_lat >= @minLat AND r.min_lat <= @maxLat
         AND ${ev ? "s.station_type IN ('ev_charger', 'both') AND @fuel IS NOT NULL" : '1'}`,
    )
    .raw()
    .iterate({ minLon, minLat, maxLon, maxLat, fuel }) as IterableIterator<unknown[]>;
}

/** Every station its own point, with the properties of the box route's Features, in identity order. */
function stationPoints(c: SqliteConnection, query: TileQuery): Point[] {
  const found: { key: string; point: Point }[] = [];
  const columns =
    's.lon, s.lat, s.id, s.external_id, s.country, s.name, s.brand, s.address, s.city, s.power_kw';
  for (const row of tileRows(c, query, columns)) {
    const [lon, lat, id, externalId, country, name, brand, address, city, powerKw, price, currency, at] =
      row as [
        number,
        number,
        string,
        string,
        string,
        string,
        string | null,
        string,
        string,
        number | null,
        number | null,
        string | null,
        number | null,
      ];
    const place = placeInTile(query, lon, lat);
    if (!place) continue;
    const tags: Properties = { id, externalId, country, name, address, city, fuelType: query.fuel };
    if (brand !== null) tags.brand = brand;
    if (powerKw !== null) tags.powerKw = powerKw;
    tags.currency = query.fuel === EV_FUEL ? 'EUR' : (currency ?? '');
    if (price !== null) tags.price = price;
    if (at !== null) tags.reportedAt = at;
    found.push({
      key: `${country}\u0000${externalId}`,
      point: { type: 1, geometry: [[place.px, place.py]], tags },
    });
  }
  found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return found.map((f) => f.point);
}

/** The tile's cells computed from its stations: each station read, in units (model/tiles.ts worldUnits). */
function liveClusters(c: SqliteConnection, query: TileQuery): ClusterCell[] {
  const { z, x, y } = query;
  const tileShift = UNIT_BITS - z;
  const cellShift = tileShift - CELL_BITS;
  const cells = new Map<
    number,
    { cell: ClusterCell; prices: number[]; currency: string | null | undefined }
  >();
  for (const row of tileRows(c, query, 's.lon, s.lat')) {
    const [lon, lat, price, currency] = row as [number, number, number | null, string | null];
    const [ux, uy] = worldUnits(lon, lat);
    if (ux >>> tileShift !== x || uy >>> tileShift !== y) continue;
    const key =
      ((uy >>> cellShift) & (CLUSTER_GRID - 1)) * CLUSTER_GRID + ((ux >>> cellShift) & (CLUSTER_GRID - 1));
    let found = cells.get(key);
    if (!found) {
      const cell = { cell: key, count: 0, sumUx: 0, sumUy: 0, cheapest: null, median: null, currency: null };
      found = { cell, prices: [], currency: undefined };
      cells.set(key, found);
    }
    found.cell.count++;
    found.cell.sumUx += ux;
    found.cell.sumUy += uy;
    if (price !== null) found.prices.push(price);
    if (currency !== null)
      found.currency = found.currency === undefined || found.currency === currency ? currency : null;
  }
  return [...cells.keys()]
    .sort((a, b) => a - b)
    .map((key) => {
      const { cell, prices, currency } = cells.get(key) as {
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

/**
 * One point per cell of the grid holding a station: at the mean of its stations' places (in units, so the
 * sum does not depend on the order the rows come in), with their count, and the cheapest and median of
 * their prices. The low zooms' cells come from the cluster table while it is current (clusters.ts).
 */
function clusterPoints(c: SqliteConnection, query: TileQuery): Point[] {
  const cells = tableClusters(c, query) ?? liveClusters(c, query);
  return cells.map((cell) => {
    const tags: Properties = { count: cell.count };
    if (cell.cheapest !== null) tags.cheapest = cell.cheapest;
    if (cell.median !== null) tags.median = cell.median;
    if (cell.currency) tags.currency = cell.currency;
    const geometry: [number, number][] = [
      [
        clusterPlace(cell.sumUx, cell.count, query.z, query.x),
        clusterPlace(cell.sumUy, cell.count, query.z, query.y),
      ],
    ];
    return { type: 1 as const, geometry, tags };
  });
}

export async function stationTile(c: SqliteConnection, query: TileQuery): Promise<Uint8Array> {
  const street = query.z >= STREET_ZOOM;
  const features = street ? stationPoints(c, query) : clusterPoints(c, query);
  if (features.length === 0) return new Uint8Array();
  const layers = { [street ? 'stations' : 'clusters']: { features } };
  // The encoder's input type is geojson-vt's whole tile; it reads only the features.
  return fromGeojsonVt(layers as never, { version: 2, extent: TILE_EXTENT });
}
