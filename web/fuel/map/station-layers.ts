/**
 * What the station map draws, as MapLibre sources and layers: stations clustered and coloured by price
 * relative to those in view (chargers in blue), the planned routes with the corridor, and the stations
 * along the chosen route.
 */
import type { LayerSpecification, SourceSpecification } from 'maplibre-gl';

const CHEAP = '#15803d';
const MID = '#ca8a04';
const DEAR = '#b91c1c';
const EV = '#2563eb';

const priceColour = (property: unknown) => ['interpolate', ['linear'], property, 0, CHEAP, 0.5, MID, 1, DEAR];

export const SOURCES: Record<string, SourceSpecification> = {
  stations: {
    type: 'geojson',
    data: { type: 'FeatureCollection', features: [] },
    cluster: true,
    clusterRadius: 42,
    clusterMaxZoom: 11,
    clusterProperties: { minRel: ['min', ['coalesce', ['get', 'rel'], 2]] },
  },
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
    filter: ['has', 'point_count'],
    paint: {
      'circle-color': ['case', ['>', ['get', 'minRel'], 1], EV, priceColour(['get', 'minRel'])] as never,
      'circle-radius': ['step', ['get', 'point_count'], 14, 20, 18, 100, 24, 1000, 30],
      'circle-opacity': 0.85,
      'circle-stroke-width': 2,
      'circle-stroke-color': '#ffffff',
    },
  });
  // Without glyphs (the offline base map has no fonts) a cluster cannot say its count: an inner ring
  // tells it from a single station instead.
  if (!hasGlyphs)
    layers.push({
      id: 'cluster-ring',
      type: 'circle',
      source: 'stations',
      filter: ['has', 'point_count'],
      paint: {
        'circle-radius': ['step', ['get', 'point_count'], 8, 20, 11, 100, 15, 1000, 19],
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
      filter: ['has', 'point_count'],
      layout: { 'text-field': ['get', 'point_count_abbreviated'], 'text-size': 12 },
      paint: { 'text-color': '#ffffff' },
    });
  layers.push({
    id: 'station',
    type: 'circle',
    source: 'stations',
    filter: ['!', ['has', 'point_count']],
    paint: {
      'circle-color': ['case', ['has', 'rel'], priceColour(['get', 'rel']), EV] as never,
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
