/**
 * What the station map draws, as MapLibre sources and layers: every station of the fuel from the server's
 * vector tiles (`/api/tiles/{z}/{x}/{y}`: below street zoom a cluster per cell with its count and its
 * cheapest and median price, from it each station its own point), coloured by price against the range of
 * those in view (chargers in blue); the planned routes with the corridor, and the stations along the
 * chosen route.
 */
import type { LayerSpecification, SourceSpecification, VectorSourceSpecification } from 'maplibre-gl';

const CHEAP = '#15803d';
const MID = '#ca8a04';
const DEAR = '#b91c1c';
const EV = '#2563eb';

const priceColour = (property: unknown) => ['interpolate', ['linear'], property, 0, CHEAP, 0.5, MID, 1, DEAR];

/** The zoom from which the tiles hold every station as its own point (the server's STREET_ZOOM). */
export const STREET_ZOOM = 14;

/** The tile addresses of one fuel, on the page's own origin. */
export const tileUrl = (origin: string, fuel: string) =>
  `${origin}/api/tiles/{z}/{x}/{y}?fuel=${encodeURIComponent(fuel)}`;

/** The stations' tiles: past street zoom the street tiles are drawn larger (every station is in them). */
export const stationTiles = (origin: string, fuel: string): VectorSourceSpecification => ({
  type: 'vector',
  tiles: [tileUrl(origin, fuel)],
  minzoom: 0,
  maxzoom: STREET_ZOOM,
});

/**
 * A price as 0 (the cheapest in view) to 1 (the dearest in view), from the range the page last saw; no
 * price (a charge point) as 2, drawn blue.
 */
export function relativePrice(property: string, low: number, high: number): unknown {
  const span = high > low ? high - low : 1;
  return ['case', ['has', property], ['/', ['-', ['get', property], low], span], 2];
}

/** The colour of a cluster (its median price) or a station (its price), against the range in view. */
export function priceFill(property: string, low: number, high: number): unknown {
  const rel = relativePrice(property, low, high);
  return ['case', ['>', rel, 1.5], EV, priceColour(['max', 0, ['min', 1, rel]])];
}

export const SOURCES: Record<string, SourceSpecification> = {
  routes: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
  corridor: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
  'route-stations': { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
};

/** The layers over those sources, bottom first; `hasGlyphs`: the style has fonts for a cluster's count. */
export function stationLayers(hasGlyphs: boolean): LayerSpecification[] {
  const layers: LayerSpecification[] = [];
  layers.push({
    id: 'route-corridor',
    type: 'line',
    source: 'corridor',
    layout: { 'line-join': 'round', 'line-cap': 'round' },
    paint: { 'line-color': '#2563eb', 'line-opacity': 0.15, 'line-width': 10 },
  });
  layers.push({
    id: 'route-alt',
    type: 'line',
    source: 'routes',
    filter: ['==', ['get', 'chosen'], false],
    paint: { 'line-color': '#6b7280', 'line-width': 4, 'line-dasharray': [2, 1] },
  });
  layers.push({
    id: 'route-main',
    type: 'line',
    source: 'routes',
    filter: ['==', ['get', 'chosen'], true],
    layout: { 'line-join': 'round', 'line-cap': 'round' },
    paint: { 'line-color': '#1d4ed8', 'line-width': 5 },
  });
  layers.push({
    id: 'clusters',
    type: 'circle',
    source: 'stations',
    'source-layer': 'clusters',
    paint: {
      'circle-color': priceFill('median', 0, 1) as never,
      'circle-radius': ['step', ['get', 'count'], 9, 2, 13, 20, 17, 100, 22, 1000, 27, 10000, 32],
      'circle-opacity': 0.85,
      'circle-stroke-width': 2,
      'circle-stroke-color': '#ffffff',
    },
  });
  // Without glyphs (the offline base map has no fonts) a cluster cannot say its count: an inner ring
  // tells one of many stations from a single one instead.
  if (!hasGlyphs)
    layers.push({
      id: 'cluster-ring',
      type: 'circle',
      source: 'stations',
      'source-layer': 'clusters',
      filter: ['>', ['get', 'count'], 1],
      paint: {
        'circle-radius': ['step', ['get', 'count'], 5, 20, 9, 100, 13, 1000, 17, 10000, 21],
        'circle-color': 'rgba(0, 0, 0, 0)',
        'circle-stroke-width': 2,
        'circle-stroke-color': '#ffffff',
      },
    });
  if (hasGlyphs)
    layers.push({
      id: 'cluster-count',
      type: 'symbol',
      source: 'stations',
      'source-layer': 'clusters',
      filter: ['>', ['get', 'count'], 1],
      layout: { 'text-field': ['to-string', ['get', 'count']], 'text-size': 12 },
      paint: { 'text-color': '#ffffff' },
    });
  layers.push({
    id: 'station',
    type: 'circle',
    source: 'stations',
    'source-layer': 'stations',
    paint: {
      'circle-color': priceFill('price', 0, 1) as never,
      'circle-radius': ['case', ['has', 'powerKw'], ['min', 12, ['+', 5, ['/', ['get', 'powerKw'], 40]]], 7],
      'circle-stroke-width': 1.5,
      'circle-stroke-color': '#ffffff',
    },
  });
  layers.push({
    id: 'route-station',
    type: 'circle',
    source: 'route-stations',
    paint: {
      'circle-color': ['case', ['has', 'rel'], priceColour(['get', 'rel']), EV] as never,
      'circle-radius': 8,
      'circle-stroke-width': 3,
      'circle-stroke-color': '#1d4ed8',
    },
  });
  return layers;
}
