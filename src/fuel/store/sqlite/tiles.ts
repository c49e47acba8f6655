/**
 * The SQLite store's vector tiles: the tile's stations read through the R*Tree (with their newest price,
 * migration 003), grouped and placed as model/tiles.ts says, and encoded by @maplibre/vt-pbf, the
 * encoder of MapLibre's own project. The PostgreSQL store groups and encodes in the database (ST_AsMVT).
 */
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { medianOfSorted, placeInTile, STREET_ZOOM, TILE_EXTENT, tileSearchBox } from '../../model/tiles';
import { EV_FUEL, type TileQuery } from '../store';
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

interface Cell {
  count: number;
  sumX: number;
  sumY: number;
  prices: number[];
  /** The one currency of its prices; null once two differ. */
  currency: string | null | undefined;
}

/**
 * One point per cell of the grid holding a station: at the mean of its stations' places (whole tile
 * units, so the sum does not depend on the order the rows come in), with their count, and the cheapest
 * and median of their prices.
 */
function clusterPoints(c: SqliteConnection, query: TileQuery): Point[] {
  const cells = new Map<number, Cell>();
  for (const row of tileRows(c, query, 's.lon, s.lat')) {
    const [lon, lat, price, currency] = row as [number, number, number | null, string | null];
    const place = placeInTile(query, lon, lat);
    if (!place) continue;
    let cell = cells.get(place.cell);
    if (!cell) {
      cell = { count: 0, sumX: 0, sumY: 0, prices: [], currency: undefined };
      cells.set(place.cell, cell);
    }
    cell.count++;
    cell.sumX += place.px;
    cell.sumY += place.py;
    if (price !== null) cell.prices.push(price);
    if (currency !== null)
      cell.currency = cell.currency === undefined || cell.currency === currency ? currency : null;
  }
  return [...cells.keys()]
    .sort((a, b) => a - b)
    .map((key) => {
      const cell = cells.get(key) as Cell;
      const tags: Properties = { count: cell.count };
      const prices = cell.prices.sort((a, b) => a - b);
      if (prices.length > 0) {
        tags.cheapest = prices[0] as number;
        tags.median = medianOfSorted(prices) as number;
      }
      if (cell.currency) tags.currency = cell.currency;
      const at = (sum: number) => Math.round(sum / cell.count);
      return { type: 1 as const, geometry: [[at(cell.sumX), at(cell.sumY)]], tags };
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
