import { render } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Notice } from '../../shared/notice';
import { type Config, type FuelCode, type LonLat, readShareLink, type Station, shareLink } from '../api';
import { Planner } from '../planner/planner';
import { relativePrices } from '../prices';
import { StationButton } from '../stations/station-button';
import { StationCard } from '../stations/station-card';
import { PlaceSearch } from './place-search';
import type { Bbox } from './station-map';
import { stationKey } from './tile-station';
import { fallbackBbox, useStationMap } from './use-station-map';
import { useStationsInView } from './use-stations-in-view';
import { ViewChoice } from './view-choice';

const LIST_LENGTH = 15;

/** The map page: the stations in view, the list beside it, the station opened, the planner. */
export function FuelMap({ config }: { config: Config }) {
  const shared = useMemo(() => readShareLink(window.location.hash), []);
  const [fuel, setFuel] = useState<FuelCode>(shared?.fuel ?? config.defaultFuel);
  const [country, setCountry] = useState(shared?.country ?? config.defaultCountry);
  const [bbox, setBbox] = useState<Bbox | null>(null);
  const [selected, setSelected] = useState<Station | null>(null);
  const [pending, setPending] = useState<SharedTarget | null>(shared ?? null);
  /** The last point clicked on the map (a new object each click), for the route planner's ends. */
  const [picked, setPicked] = useState<{ at: LonLat } | null>(null);
  const mapBox = useRef<HTMLElement>(null);
  const byId = useRef(new Map<string, Station>());
  const { stations, notice: stationsNotice } = useStationsInView(
    config,
    { bbox, fuel, country },
    (features) => {
      for (const s of features) byId.current.set(s.properties.id, s);
      void mapRef.current?.showPriceRange(features);
    },
  );
  const opened = useRef(false);

  useEffect(() => {
    void mapRef.current?.showFuel(fuel);
  }, [fuel]);

  // A station's card and popup belong to the fuel and country they were opened with.
  useEffect(() => {
    if (!opened.current) {
      opened.current = true;
      return;
    }
    setSelected(null);
    mapRef.current?.closePopup();
  }, [fuel, country]);

  const { mapRef, mapError, mapReady } = useStationMap(
    mapBox,
    shared?.at ?? config.center,
    shared ? 14 : config.zoom,
    fuel,
    {
      onView: setBbox,
      onSelect: (id) => select(byId.current.get(id)),
      // A station of the tiles is the listed one when the list holds it (the list's selection shows it).
      onSelectTileStation: (station) => {
        const key = stationKey(station.properties);
        select(stations.find((s) => stationKey(s.properties) === key) ?? station);
      },
      onPick: (at) => setPicked({ at }),
    },
  );

  // A shared station: found among the stations loaded around it.
  useEffect(() => {
    if (!pending) return;
    const found = stations.find(
      (s) => s.properties.country === pending.country && s.properties.externalId === pending.externalId,
    );
    if (found) {
      select(found);
      setPending(null);
    }
  }, [stations, pending]);

  const showPopup = useCallback((station: Station) => {
    const map = mapRef.current;
    if (!map) return;
    const node = document.createElement('div');
    render(<StationCard station={station} />, node);
    map.popupFor(station, node);
  }, []);

  const select = useCallback((station: Station | undefined) => {
    if (!station) return;
    setSelected(station);
    showPopup(station);
  }, []);

  // A station chosen before the map arrived (a share link's, found as the page opened) gets its popup then.
  useEffect(() => {
    if (mapReady && selected) showPopup(selected);
  }, [mapReady]);

  const goTo = (at: LonLat, zoom = 13) => {
    if (mapRef.current) mapRef.current.flyTo(at, zoom);
    else setBbox(fallbackBbox(at, zoom));
  };

  const rel = useMemo(() => relativePrices(stations), [stations]);
  const listed = useMemo(() => {
    const copy = [...stations];
    if (fuel === 'EV') copy.sort((a, b) => (b.properties.powerKw ?? 0) - (a.properties.powerKw ?? 0));
    else copy.sort((a, b) => (a.properties.price ?? Infinity) - (b.properties.price ?? Infinity));
    return copy.slice(0, LIST_LENGTH);
  }, [stations, fuel]);

  return (
    <div class="layout">
      <aside class="panel" aria-label="Search and route planner">
        <header>
          <h1>Fuel and charging prices</h1>
        </header>
        <ViewChoice
          config={config}
          country={country}
          fuel={fuel}
          onFuel={setFuel}
          onCountry={(code) => {
            setCountry(code);
            const settings = config.enabledCountries.find((c) => c.code === code);
            if (!settings) return;
            goTo(settings.center, settings.zoom);
            // A fuel the new country's feeds do not carry would show no station: its own default.
            if (settings.fuels.length > 0 && !settings.fuels.includes(fuel)) setFuel(settings.defaultFuel);
          }}
        />
        <PlaceSearch near={bbox} onShow={(place) => goTo(place.coordinates)} />
        {mapError && <Notice kind="warning">{mapError}</Notice>}
        {selected && (
          <section class="selected" aria-labelledby="selected-title">
            <h2 id="selected-title" class="visually-hidden">
              Selected station
            </h2>
            <StationCard station={selected} share={shareLink(selected, fuel)} />
          </section>
        )}
        <section aria-labelledby="inview-title">
          <h2 id="inview-title">
            In view <span class="muted">({stations.length} stations)</span>
          </h2>
          {stationsNotice && <Notice kind={stationsNotice.kind}>{stationsNotice.text}</Notice>}
          <ol class="stations" data-testid="stations-in-view">
            {listed.map((s) => (
              <li key={s.properties.id}>
                <StationButton station={s} rel={rel.get(s.properties.id)} onSelect={select} />
              </li>
            ))}
          </ol>
        </section>
        <Planner
          fuel={fuel}
          near={bbox}
          picked={picked}
          onRoutes={(routes, chosen, corridorKm) =>
            void mapRef.current?.showRoutes(routes, chosen, corridorKm)
          }
          onRouteStations={(list) => {
            for (const s of list) byId.current.set(s.properties.id, s);
            void mapRef.current?.showRouteStations(list);
          }}
          onSelect={select}
        />
      </aside>
      <section class="map" ref={mapBox} aria-label="Map of stations" />
    </div>
  );
}

interface SharedTarget {
  country: string;
  externalId: string;
}
