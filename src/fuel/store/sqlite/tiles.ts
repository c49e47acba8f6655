/**
 * The SQLite store's vector tiles: the tile's stations read through the R*Tree (with their newest price,
 * migration 003; the densest street tiles from their copy, street-copies.ts), grouped and placed as
 * model/tiles.ts says, and encoded by @maplibre/vt-pbf, the encoder of MapLibre's own project. The
 * PostgreSQL store groups and encodes in the database (ST_AsMVT).
 */
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { CellTally, type ClusterCell } from '../../model/tile-points';
import { clusterPlace, placeInTile, STREET_ZOOM, TILE_EXTENT, worldUnits } from '../../model/tiles';
import { EV_FUEL, type TileQuery } from '../store';
import { tableClusters } from './clusters';
import type { SqliteConnection } from './connection';
import { streetRows, tileRows } from './street-copies';

type Properties = Record<string, string | number>;
interface Point {
  type: 1;
  geometry: [number, number][];
  tags: Properties;
}

/**
 * Every station its own point, with the properties of the box route's Features but the database id (a
 * random UUID: half a street tile's compressed bytes, and the page names a station by its durable
 * identity), in identity order.
 */
function stationPoints(c: SqliteConnection, query: TileQuery): Point[] {
  const found: { key: string; point: Point }[] = [];
  for (const row of streetRows(c, query)) {
    const [lon, lat, externalId, country, name, brand, address, city, powerKw, price, currency, at] = row as [
      number,
      number,
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
    const tags: Properties = { externalId, country, name, address, city, fuelType: query.fuel };
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
  const tally = new CellTally(query.z, query.x, query.y);
  for (const row of tileRows(c, query, 's.lon, s.lat')) {
    const [lon, lat, price, currency] = row as [number, number, number | null, string | null];
    const [ux, uy] = worldUnits(lon, lat);
    tally.add(ux, uy, price, currency);
  }
  return tally.result();
}

/**
 * One point per cell of the grid holding a station: at the mean of its stations' places (in units, so the
 * sum does not depend on the order the rows come in), with their count, and the cheapest and median of
 * their prices. Below street zoom the cells come from the last build (clusters.ts) once there is one.
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
