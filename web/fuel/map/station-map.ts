/**
 * The MapLibre map: every station of the fuel from the server's vector tiles (clusters below street zoom,
 * each station its own point from it), coloured by price against the stations in view; the planned routes
 * with the corridor, and the stations along the chosen route. The page keeps working
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
  type VectorTileSource,
} from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import type { LonLat, Route, Station } from '../api';
import { simplified } from '../geometry';
import { relativePrices } from '../prices';
import { priceFill, SOURCES, STREET_ZOOM, stationLayers, stationTiles, tileUrl } from './station-layers';
import { stationFromTile, stationKey } from './tile-station';

setWorkerUrl(workerUrl);

export type Bbox = [number, number, number, number];

export interface MapEvents {
  onView(bbox: Bbox): void;
  onSelect(id: string): void;
  /** A station point of the street tiles, as its card takes it (tile-station.ts). */
  onSelectTileStation(station: Station): void;
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

  constructor(
    container: HTMLElement,
    style: string,
    center: LonLat,
    zoom: number,
    private fuel: string,
    events: MapEvents,
  ) {
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
    // What the map shows, in data attributes of its box, for the browser tests and other tools that
    // cannot read the canvas: the zoom, the clusters and stations drawn, the largest cluster's place, and
    // one station point's place and identity.
    this.map.on('idle', () => {
      const layers = ['clusters', 'station'].filter((id) => this.map.getLayer(id));
      const drawn = layers.length > 0 ? this.map.queryRenderedFeatures({ layers }) : [];
      const clusters = drawn.filter((f) => f.layer.id === 'clusters');
      container.dataset.zoom = this.map.getZoom().toFixed(2);
      container.dataset.drawnClusters = String(clusters.length);
      const largest = clusters.reduce<(typeof clusters)[number] | undefined>(
        (best, f) => (Number(f.properties?.count) > Number(best?.properties?.count ?? 0) ? f : best),
        undefined,
      );
      if (largest?.geometry.type === 'Point') {
        const at = this.map.project(largest.geometry.coordinates as [number, number]);
        container.dataset.largestCluster = `${Math.round(at.x)},${Math.round(at.y)}`;
      } else delete container.dataset.largestCluster;
      // The station point nearest the middle of the map (away from its controls).
      const middle = this.map.project(this.map.getCenter());
      let nearest: { x: number; y: number; off: number; key: string } | undefined;
      for (const f of drawn) {
        if (f.layer.id !== 'station' || f.geometry.type !== 'Point') continue;
        const { x, y } = this.map.project(f.geometry.coordinates as [number, number]);
        const off = Math.hypot(x - middle.x, y - middle.y);
        if (!nearest || off < nearest.off) nearest = { x, y, off, key: stationKey(f.properties) };
      }
      if (nearest) {
        container.dataset.aStation = `${Math.round(nearest.x)},${Math.round(nearest.y)}`;
        container.dataset.aStationKey = nearest.key;
      } else {
        delete container.dataset.aStation;
        delete container.dataset.aStationKey;
      }
      container.dataset.drawnStations = String(
        drawn.length -
          clusters.length +
          clusters.reduce((sum, f) => sum + Number(f.properties?.count ?? 0), 0),
      );
    });
    this.map.on('click', 'station', (e) => {
      const feature = e.features?.[0];
      if (feature?.geometry.type !== 'Point') return;
      const station = stationFromTile(feature.properties, feature.geometry.coordinates as LonLat);
      if (station) events.onSelectTileStation(station);
    });
    // A cluster opens towards its stations: two zooms closer, at most to the zoom where each is its own point.
    this.map.on('click', 'clusters', (e) => {
      const feature = e.features?.[0];
      if (feature?.geometry.type !== 'Point') return;
      const zoom = Math.min(STREET_ZOOM, Math.floor(this.map.getZoom()) + 2);
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
    this.map.addSource('stations', stationTiles(window.location.origin, this.fuel));
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

  /** Shows another fuel's stations: the tiles of that fuel. */
  async showFuel(fuel: string): Promise<void> {
    if (fuel === this.fuel) return;
    this.fuel = fuel;
    await this.ready;
    // Gone only if the style was replaced after the map was drawn; nothing to tell then.
    (this.map.getSource('stations') as VectorTileSource | undefined)?.setTiles([
      tileUrl(window.location.origin, fuel),
    ]);
  }

  /** Colours the map's stations and clusters against the price range of the stations in view. */
  async showPriceRange(stations: Station[]): Promise<void> {
    const prices = stations.map((s) => s.properties.price).filter((p): p is number => p !== undefined);
    if (prices.length === 0) return;
    const [low, high] = [Math.min(...prices), Math.max(...prices)];
    await this.ready;
    if (!this.map.getLayer('clusters') || !this.map.getLayer('station')) return;
    this.map.setPaintProperty('clusters', 'circle-color', priceFill('median', low, high) as never);
    this.map.setPaintProperty('station', 'circle-color', priceFill('price', low, high) as never);
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
