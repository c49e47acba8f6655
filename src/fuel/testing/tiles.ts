/** Reads a vector tile back for the tests, with the Mapbox Vector Tile reader MapLibre itself uses. */
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';

export interface DecodedPoint {
  x: number;
  y: number;
  properties: Record<string, string | number | boolean>;
}

/** Each layer's points, in the tile's order; checks the tile's version and extent on the way. */
export function decodeTile(bytes: Uint8Array): Record<string, DecodedPoint[]> {
  const tile = new VectorTile(new PbfReader(bytes));
  const layers: Record<string, DecodedPoint[]> = {};
  for (const [name, layer] of Object.entries(tile.layers)) {
    if (layer.version !== 2 || layer.extent !== 4096) {
      throw new Error(`layer ${name}: version ${layer.version}, extent ${layer.extent}`);
    }
    layers[name] = Array.from({ length: layer.length }, (_, i) => {
      const feature = layer.feature(i);
      if (feature.type !== 1) throw new Error(`layer ${name}: a feature of type ${feature.type}`);
      const [[point]] = feature.loadGeometry() as unknown as [[{ x: number; y: number }]];
      return { x: point.x, y: point.y, properties: { ...feature.properties } };
    });
  }
  return layers;
}
