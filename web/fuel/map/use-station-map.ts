/**
 * The map, once, loaded after the panel (MapLibre is most of the page's code): the view it starts on is
 * handed on at once, so its stations are asked for before the map is drawn. Without WebGL the panel
 * keeps working on that view, and `mapError` says why there is no map.
 */
import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { LonLat, Station } from '../api';
import type { Bbox, StationMap } from './station-map';

const mapStyle = () =>
  document.querySelector<HTMLMetaElement>('meta[name="map-style"]')?.content || './static/blank-style.json';

/** The box shown when no map can be drawn: about a 900×700 pixel window at the configured zoom. */
export function fallbackBbox(center: LonLat, zoom: number): Bbox {
  const [lon = 0, lat = 0] = center;
  const lonSpan = ((900 / 256) * 360) / 2 ** zoom;
  const latSpan = (((700 / 256) * 360) / 2 ** zoom) * Math.cos((lat * Math.PI) / 180);
  const c = (v: number, l: number) => Math.max(-l, Math.min(l, v));
  return [
    c(lon - lonSpan / 2, 180),
    c(lat - latSpan / 2, 90),
    c(lon + lonSpan / 2, 180),
    c(lat + latSpan / 2, 90),
  ];
}

export function useStationMap(
  box: RefObject<HTMLElement | null>,
  start: LonLat,
  zoom: number,
  fuel: string,
  on: {
    onView: (bbox: Bbox) => void;
    onSelect: (id: string) => void;
    onSelectTileStation: (station: Station) => void;
    onPick: (at: LonLat) => void;
  },
) {
  const mapRef = useRef<StationMap | null>(null);
  const [mapError, setMapError] = useState<string | null>(null);
  /** Whether the map exists (MapLibre arrives after the panel). */
  const [mapReady, setMapReady] = useState(false);
  const handlers = useRef(on);
  handlers.current = on;
  // The fuel chosen when MapLibre has arrived, not when it was asked for: a choice made while it loads
  // finds no map to tell, and the map starts on it instead.
  const chosenFuel = useRef(fuel);
  chosenFuel.current = fuel;

  useEffect(() => {
    handlers.current.onView(fallbackBbox(start, zoom));
    let cancelled = false;
    import('./station-map')
      .then(({ StationMap }) => {
        if (cancelled || !box.current) return;
        const map = new StationMap(box.current, mapStyle(), start, zoom, chosenFuel.current, {
          onView: (bbox) => handlers.current.onView(bbox),
          onSelect: (id) => handlers.current.onSelect(id),
          onSelectTileStation: (station) => handlers.current.onSelectTileStation(station),
          onPick: (at) => handlers.current.onPick(at),
        });
        map.selectHandler = (id) => handlers.current.onSelect(id);
        map.map.on('error', (e) => {
          if (!String(e.error?.message ?? '').includes('style')) return;
          setMapError(
            map.useBlankStyle()
              ? 'The base map could not be loaded; stations are drawn on the offline base map (land, coasts and borders).'
              : 'The base map could not be loaded.',
          );
        });
        mapRef.current = map;
        setMapReady(true);
        handlers.current.onView(map.bbox());
      })
      .catch(() =>
        setMapError(
          'The map cannot be drawn in this browser (WebGL is unavailable); the lists below still work.',
        ),
      );
    return () => {
      cancelled = true;
      mapRef.current?.map.remove();
    };
  }, []);

  return { mapRef, mapError, mapReady };
}
