/**
 * The MapLibre map: stations clustered and coloured by price relative to the stations in view, the
 * planned routes with the corridor, and the stations along the chosen route. The page keeps working
 * without it (no WebGL): every station and route result is also in the side panel.
 */
import {
  type GeoJSONSource,
  type LngLatBoundsLike,
  Map as MapLibre,
  NavigationControl,
  Popup,
  type StyleSpecification,
  setWorkerUrl,
} from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import type { LonLat, Route, Station } from '../api';
import { simplified } from '../geometry';
import { relativePrices } from '../prices';
import { SOURCES, stationLayers } from './station-layers';

setWorkerUrl(workerUrl);

export type Bbox = [number, number, number, number];

export interface MapEvents {
  onView(bbox: Bbox): void;
  onSelect(id: string): void;
  /** A click on the map itself (not on a station): the point, for the route planner. */
  onPick?(at: LonLat): void;
}

/** The plain style the build carries (web/fuel/public/static/). */
export const BLANK_STYLE = './static/blank-style.json';

export class StationMap {
  readonly map: MapLibre;
  private ready: Promise<void>;
  private popup: Popup | undefined;
  private hasGlyphs = false;

  constructor(container: HTMLElement, style: string, center: LonLat, zoom: number, events: MapEvents) {
    this.map = new MapLibre({
      container,
      style: new URL(style, window.location.href).href,
      center: [center[0] ?? 0, center[1] ?? 0],
      zoom,
      attributionControl: { compact: true },
    });
    this.map.addControl(new NavigationControl({ showCompass: false }), 'top-right');
    this.ready = new Promise((resolve) => {
      this.map.once('load', () => {
        this.hasGlyphs = Boolean((this.map.getStyle() as StyleSpecification).glyphs);
        this.addLayers();
        resolve();
      });
    });
    this.map.on('moveend', () => events.onView(this.bbox()));
    this.map.on('click', 'station', (e) => {
      const id = e.features?.[0]?.properties?.id;
      if (typeof id === 'string') events.onSelect(id);
    });
    this.map.on('click', 'clusters', async (e) => {
      const feature = e.features?.[0];
      const source = this.map.getSource('stations') as GeoJSONSource | undefined;
      if (!feature || !source || feature.geometry.type !== 'Point') return;
      const zoom = await source.getClusterExpansionZoom(feature.properties?.cluster_id as number);
      this.map.easeTo({ center: feature.geometry.coordinates as [number, number], zoom });
    });
    this.map.on('click', (e) => {
      const layers = ['station', 'clusters', 'route-station'].filter((id) => this.map.getLayer(id));
      if (this.map.queryRenderedFeatures(e.point, { layers }).length > 0) return;
      events.onPick?.([e.lngLat.lng, e.lngLat.lat]);
    });
    for (const layer of ['station', 'clusters', 'route-station']) {
      this.map.on('mouseenter', layer, () => {
        this.map.getCanvas().style.cursor = 'pointer';
      });
      this.map.on('mouseleave', layer, () => {
        this.map.getCanvas().style.cursor = '';
      });
    }
  }

  whenReady(): Promise<void> {
    return this.ready;
  }

  private blank = false;

  /**
   * Replaces a base style that could not be loaded with the build's own blank style, so the stations and
   * routes are still drawn (on a plain background). Answers false when the blank style is already in use.
   */
  useBlankStyle(): boolean {
    if (this.blank) return false;
    this.blank = true;
    this.map.setStyle(new URL(BLANK_STYLE, window.location.href).href);
    return true;
  }

  bbox(): Bbox {
    const b = this.map.getBounds();
    const clamp = (v: number, limit: number) => Math.max(-limit, Math.min(limit, v));
    return [
      clamp(b.getWest(), 180),
      clamp(b.getSouth(), 90),
      clamp(b.getEast(), 180),
      clamp(b.getNorth(), 90),
    ];
  }

  private addLayers(): void {
    for (const [id, source] of Object.entries(SOURCES)) this.map.addSource(id, source);
    for (const layer of stationLayers(this.hasGlyphs)) this.map.addLayer(layer);
    this.map.on('click', 'route-station', (e) => {
      const id = e.features?.[0]?.properties?.id;
      if (typeof id === 'string') this.selectHandler?.(id);
    });
  }

  selectHandler: ((id: string) => void) | undefined;

  private static collection(stations: Station[]) {
    const rel = relativePrices(stations);
    return {
      type: 'FeatureCollection' as const,
      features: stations.map((s) => ({
        type: 'Feature' as const,
        geometry: { type: 'Point' as const, coordinates: s.geometry.coordinates },
        properties: {
          id: s.properties.id,
          ...(rel.has(s.properties.id) && { rel: rel.get(s.properties.id) }),
          ...(s.properties.powerKw !== undefined && { powerKw: s.properties.powerKw }),
        },
      })),
    };
  }

  async showStations(stations: Station[]): Promise<void> {
    await this.ready;
    (this.map.getSource('stations') as GeoJSONSource).setData(StationMap.collection(stations));
  }

  async showRoutes(routes: Route[], chosen: number, corridorKm: number): Promise<void> {
    await this.ready;
    const features = routes.map((route, index) => ({
      type: 'Feature' as const,
      geometry: route.geometry,
      properties: { chosen: index === chosen },
    }));
    // Chosen route last, so it is drawn over the alternatives.
    features.sort((a, b) => Number(a.properties.chosen) - Number(b.properties.chosen));
    (this.map.getSource('routes') as GeoJSONSource).setData({ type: 'FeatureCollection', features } as never);
    const route = routes[chosen];
    // The corridor is drawn along the route with its bends smaller than a quarter of its width left
    // out: a band kilometres wide along a street's many short turns had drawn fans and spikes.
    const band = route
      ? [
          {
            type: 'Feature',
            properties: {},
            geometry: {
              type: 'LineString',
              coordinates: simplified(route.geometry.coordinates as LonLat[], (corridorKm * 1000) / 4),
            },
          },
        ]
      : [];
    (this.map.getSource('corridor') as GeoJSONSource).setData({
      type: 'FeatureCollection',
      features: band,
    } as never);
    if (route) {
      const lat = (((route.bbox[1] ?? 0) + (route.bbox[3] ?? 0)) / 2) * (Math.PI / 180);
      // The corridor's full width in pixels at each zoom (metres per pixel halve with each zoom step).
      const metresPerPixel0 = 78271.517 * Math.cos(lat);
      const width0 = (2 * corridorKm * 1000) / metresPerPixel0;
      this.map.setPaintProperty('route-corridor', 'line-width', [
        'interpolate',
        ['exponential', 2],
        ['zoom'],
        0,
        width0,
        20,
        width0 * 2 ** 20,
      ]);
      this.map.fitBounds(route.bbox as unknown as LngLatBoundsLike, { padding: 40, duration: 0 });
    }
  }

  async showRouteStations(stations: Station[]): Promise<void> {
    await this.ready;
    (this.map.getSource('route-stations') as GeoJSONSource).setData(StationMap.collection(stations));
  }

  popupFor(station: Station, content: HTMLElement): void {
    this.popup?.remove();
    const [lon = 0, lat = 0] = station.geometry.coordinates;
    this.popup = new Popup({ maxWidth: '280px', focusAfterOpen: false })
      .setLngLat([lon, lat])
      .setDOMContent(content)
      .addTo(this.map);
    this.map.easeTo({ center: [lon, lat], duration: 300 });
  }

  /** Closes the station's popup (its card no longer matches what the map shows). */
  closePopup(): void {
    this.popup?.remove();
    this.popup = undefined;
  }

  flyTo(at: LonLat, zoom?: number): void {
    this.map.jumpTo({ center: [at[0] ?? 0, at[1] ?? 0], ...(zoom !== undefined && { zoom }) });
  }
}
