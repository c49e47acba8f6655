import { render } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { CopyField } from '../shared/copy-field';
import { Notice } from '../shared/notice';
import {
  api,
  type Config,
  type DetourStation,
  type FuelCode,
  formatPrice,
  type GeocodeResult,
  type LonLat,
  offeredFuels,
  parseTypedPoint,
  problem,
  type Route,
  readDetours,
  readShareLink,
  type Station,
  shareLink,
} from './api';
import { anchorsFor, measure } from './geo';
import type { Bbox, StationMap } from './map';
import { relativePrices } from './prices';

const MAX_WAYPOINTS = 5;
const MAX_DETOUR_STATIONS = 150;
const LIST_LENGTH = 15;

const mapStyle = () =>
  document.querySelector<HTMLMetaElement>('meta[name="map-style"]')?.content || './static/blank-style.json';

/** The box shown when no map can be drawn: about a 900×700 pixel window at the configured zoom. */
function fallbackBbox(center: LonLat, zoom: number): Bbox {
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

const formatDuration = (seconds: number) => {
  const minutes = Math.round(seconds / 60);
  return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
};

const formatWhen = (iso: string | undefined) =>
  iso
    ? new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso))
    : '';

type Said = { kind: 'ok' | 'warning' | 'error'; text: string } | null;

export function App() {
  const [config, setConfig] = useState<Config | null>(null);
  const [configError, setConfigError] = useState<string | null>(null);
  useEffect(() => {
    api.GET('/api/config').then(
      (r) =>
        r.data
          ? setConfig(r.data)
          : setConfigError(`The server could not give its settings (${problem(r)}).`),
      () => setConfigError('The server does not answer.'),
    );
  }, []);
  if (configError)
    return (
      <main class="center">
        <Notice kind="error">{configError}</Notice>
      </main>
    );
  if (!config) return <main class="center">Loading…</main>;
  return <FuelMap config={config} />;
}

function FuelMap({ config }: { config: Config }) {
  const shared = useMemo(() => readShareLink(window.location.hash), []);
  const [fuel, setFuel] = useState<FuelCode>(shared?.fuel ?? config.defaultFuel);
  const [country, setCountry] = useState(shared?.country ?? config.defaultCountry);
  const [bbox, setBbox] = useState<Bbox | null>(null);
  const [stations, setStations] = useState<Station[]>([]);
  const [stationsNotice, setStationsNotice] = useState<Said>(null);
  const [selected, setSelected] = useState<Station | null>(null);
  const [mapError, setMapError] = useState<string | null>(null);
  const [pending, setPending] = useState<SharedTarget | null>(shared ?? null);
  /** The last point clicked on the map (a new object each click), for the route planner's ends. */
  const [picked, setPicked] = useState<{ at: LonLat } | null>(null);
  const mapBox = useRef<HTMLElement>(null);
  const mapRef = useRef<StationMap | null>(null);
  const byId = useRef(new Map<string, Station>());
  const firstLoad = useRef(true);
  /** The countries whose stations are loaded (`/api/stats`), to tell an empty view from a country with no data. */
  const [loadedCountries, setLoadedCountries] = useState<Set<string> | null>(null);

  useEffect(() => {
    api
      .GET('/api/stats')
      .then(
        (r) =>
          r.data &&
          setLoadedCountries(new Set(r.data.countries.filter((c) => c.stations > 0).map((c) => c.code))),
      )
      .catch(() => undefined);
  }, []);

  // A station's card and popup belong to the fuel and country they were opened with.
  useEffect(() => {
    if (firstLoad.current) return;
    setSelected(null);
    mapRef.current?.closePopup();
  }, [fuel, country]);

  // The map, once, loaded after the panel (MapLibre is most of the page's code): the stations of the
  // configured view are asked for at once. Without WebGL the panel keeps working on that view.
  useEffect(() => {
    const start = shared?.at ?? config.center;
    const zoom = shared ? 14 : config.zoom;
    setBbox(fallbackBbox(start, zoom));
    let cancelled = false;
    import('./map')
      .then(({ StationMap }) => {
        if (cancelled || !mapBox.current) return;
        const map = new StationMap(mapBox.current, mapStyle(), start, zoom, {
          onView: setBbox,
          onSelect: (id) => select(byId.current.get(id)),
          onPick: (at) => setPicked({ at }),
        });
        map.selectHandler = (id) => select(byId.current.get(id));
        map.map.on('error', (e) => {
          if (!String(e.error?.message ?? '').includes('style')) return;
          setMapError(
            map.useBlankStyle()
              ? 'The base map could not be loaded; stations are drawn on the offline base map (land, coasts and borders).'
              : 'The base map could not be loaded.',
          );
        });
        mapRef.current = map;
        setBbox(map.bbox());
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

  // Stations of the visible box for the chosen fuel.
  useEffect(() => {
    if (!bbox) return;
    const controller = new AbortController();
    const timer = window.setTimeout(
      async () => {
        const result = await api
          .GET('/api/stations', {
            params: { query: { bbox: bbox.map((v) => v.toFixed(5)).join(','), fuel } },
            signal: controller.signal,
          })
          .catch(() => undefined);
        if (!result || controller.signal.aborted) return;
        if (!result.data) {
          setStationsNotice({ kind: 'error', text: `Stations could not be loaded (${problem(result)}).` });
          return;
        }
        const features = result.data.features;
        for (const s of features) byId.current.set(s.properties.id, s);
        setStations(features);
        // A box holding more than the route's cap answers an arbitrary part of it, marked by a header.
        const partial = result.response.headers.get('x-result-truncated') === 'true';
        setStationsNotice(
          features.length === 0
            ? emptyViewNotice()
            : partial
              ? {
                  kind: 'warning',
                  text: `More stations are in view than are shown (${features.length.toLocaleString()}): zoom in to see every one and the cheapest.`,
                }
              : null,
        );
        void mapRef.current?.showStations(features);
      },
      firstLoad.current ? 0 : 150,
    );
    firstLoad.current = false;
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [bbox, fuel]);

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

  /** Why the view is empty: the chosen country has no data loaded at all, or nothing is in view. */
  const emptyViewNotice = (): Said => {
    const name = config.enabledCountries.find((c) => c.code === country)?.name ?? country;
    if (loadedCountries && !loadedCountries.has(country))
      return {
        kind: 'warning',
        text: `No data is loaded for ${name} yet: its stations and prices appear once its feed has been scraped.`,
      };
    return { kind: 'warning', text: 'No stations with this fuel in view. Zoom out or move the map.' };
  };

  const select = useCallback((station: Station | undefined) => {
    if (!station) return;
    setSelected(station);
    const map = mapRef.current;
    if (map) {
      const node = document.createElement('div');
      render(<StationCard station={station} />, node);
      map.popupFor(station, node);
    }
  }, []);

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
        <div class="row">
          <div class="field grow">
            <label for="country">Country</label>
            <select
              id="country"
              value={country}
              onChange={(e) => {
                const code = e.currentTarget.value;
                setCountry(code);
                const settings = config.enabledCountries.find((c) => c.code === code);
                if (!settings) return;
                goTo(settings.center, settings.zoom);
                // A fuel the new country's feeds do not carry would show no station: its own default.
                if (settings.fuels.length > 0 && !settings.fuels.includes(fuel))
                  setFuel(settings.defaultFuel);
              }}
            >
              {config.enabledCountries.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <div class="field grow">
            <label for="fuel">Fuel</label>
            <select id="fuel" value={fuel} onChange={(e) => setFuel(e.currentTarget.value as FuelCode)}>
              {offeredFuels(config.enabledCountries.find((c) => c.code === country)?.fuels, fuel).map((f) => (
                <option key={f.code} value={f.code}>
                  {f.label}
                </option>
              ))}
            </select>
          </div>
        </div>
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

function StationButton(props: {
  station: Station;
  rel: number | undefined;
  onSelect: (s: Station) => void;
  extra?: preact.ComponentChildren;
}) {
  const p = props.station.properties;
  const tone =
    props.rel === undefined ? 'ev' : props.rel < 0.34 ? 'cheap' : props.rel < 0.67 ? 'mid' : 'dear';
  return (
    <button type="button" class="station" onClick={() => props.onSelect(props.station)}>
      <span class={`dot ${tone}`} aria-hidden="true" />
      <span class="name">
        {p.name}
        <span class="muted"> · {p.city}</span>
      </span>
      <span class="price">
        {p.price !== undefined ? formatPrice(props.station) : p.powerKw ? `${p.powerKw} kW` : ''}
      </span>
      {props.extra}
    </button>
  );
}

function StationCard(props: { station: Station; share?: string }) {
  const p = props.station.properties;
  return (
    <div class="card" data-testid="station-card">
      <h3>{p.name}</h3>
      {p.brand && <p class="muted">{p.brand}</p>}
      <p>
        {p.address}, {p.city}
      </p>
      {p.price !== undefined ? (
        <p>
          <strong class="big">{formatPrice(props.station)}</strong> {p.fuelType} ({p.currency})
          <br />
          <span class="muted">stored {formatWhen(p.reportedAt)}</span>
        </p>
      ) : (
        <p>EV charging{p.powerKw !== undefined ? `, up to ${p.powerKw} kW` : ', power not given'}</p>
      )}
      {props.share && (
        <div class="share">
          <CopyField id="share-link" label="Share link" value={props.share} />
        </div>
      )}
    </div>
  );
}

async function geocode(q: string, near: Bbox | null): Promise<{ places: GeocodeResult[]; error?: string }> {
  const query: { q: string; lat?: number; lon?: number } = { q };
  if (near) {
    query.lon = (near[0] + near[2]) / 2;
    query.lat = (near[1] + near[3]) / 2;
  }
  const result = await api.GET('/api/geocode', { params: { query } });
  if (result.response.status === 502)
    return { places: [], error: 'Place search failed: the geocoder did not answer.' };
  if (!result.data) return { places: [], error: `Place search failed (${problem(result)}).` };
  if (result.data.length === 0)
    return {
      places: [],
      error: `No place found for “${q}” (the place search may not be set up on this server).`,
    };
  return { places: result.data };
}

function PlaceSearch(props: { near: Bbox | null; onShow: (place: GeocodeResult) => void }) {
  const [q, setQ] = useState('');
  const [places, setPlaces] = useState<GeocodeResult[]>([]);
  const [error, setError] = useState<string | null>(null);
  const search = async (event: Event) => {
    event.preventDefault();
    if (!q.trim()) return;
    const found = await geocode(q.trim(), props.near);
    setPlaces(found.places);
    setError(found.error ?? null);
  };
  return (
    <search>
      <form onSubmit={search} class="search">
        <label for="place">Find a place</label>
        <div class="row">
          <input
            id="place"
            class="grow"
            type="search"
            value={q}
            onInput={(e) => setQ(e.currentTarget.value)}
          />
          <button type="submit">Search</button>
        </div>
        {error && <Notice kind="warning">{error}</Notice>}
        {places.length > 0 && (
          <ul class="places" aria-label="Places found">
            {places.slice(0, 6).map((place) => (
              <li key={`${place.coordinates.join(',')}-${place.name}`}>
                <button type="button" onClick={() => props.onShow(place)}>
                  {place.name}
                  <span class="muted"> {[place.city, place.country].filter(Boolean).join(', ')}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </form>
    </search>
  );
}

interface PlannedStation {
  station: Station;
  km: number;
  detourMin?: number;
}

function Planner(props: {
  fuel: FuelCode;
  near: Bbox | null;
  /** A point clicked on the map: it becomes the start, or the end once a start is set. */
  picked: { at: LonLat } | null;
  onRoutes: (routes: Route[], chosen: number, corridorKm: number) => void;
  onRouteStations: (stations: Station[]) => void;
  onSelect: (s: Station) => void;
}) {
  const [origin, setOrigin] = useState('');
  const [destination, setDestination] = useState('');
  const [waypoints, setWaypoints] = useState<string[]>([]);
  const [corridorKm, setCorridorKm] = useState(5);
  const [routes, setRoutes] = useState<Route[]>([]);
  const [chosen, setChosen] = useState(0);
  const [planned, setPlanned] = useState<PlannedStation[]>([]);
  const [order, setOrder] = useState<'price' | 'position'>('price');
  const [maxDetour, setMaxDetour] = useState(5);
  const [notice, setNotice] = useState<Said>(null);
  const [busy, setBusy] = useState(false);
  const [measuring, setMeasuring] = useState(false);
  const detourRun = useRef<AbortController | null>(null);
  const ends = useRef<{ origin: LonLat; destination: LonLat } | null>(null);

  useEffect(() => {
    if (!props.picked) return;
    const [lon = 0, lat = 0] = props.picked.at;
    const text = `${lat.toFixed(5)}, ${lon.toFixed(5)}`;
    if (origin.trim() === '') setOrigin(text);
    else setDestination(text);
  }, [props.picked]);

  const resolve = async (text: string, what: string): Promise<LonLat> => {
    const typed = parseTypedPoint(text);
    if (typed) return typed;
    const found = await geocode(text, props.near);
    const first = found.places[0];
    if (!first) throw new Error(found.error ?? `No place found for the ${what}.`);
    return first.coordinates;
  };

  const stationsAlong = async (route: Route, corridor: number) => {
    detourRun.current?.abort();
    setPlanned([]);
    const result = await api.POST('/api/route-stations', {
      body: { geometry: route.geometry, fuel: props.fuel, corridorKm: corridor },
    });
    if (!result.data) {
      setNotice({ kind: 'error', text: `Stations along the route could not be found (${problem(result)}).` });
      return;
    }
    const features = result.data.features;
    const total = route.distance;
    const list: PlannedStation[] = features.map((station) => ({
      station,
      km: (station.properties.routeFraction ?? 0) * total,
    }));
    setPlanned(list);
    props.onRouteStations(features);
    if (list.length === 0) {
      setNotice({
        kind: 'warning',
        text: 'No stations with this fuel within the corridor. Try a wider corridor.',
      });
      return;
    }
    setNotice(null);
    await measureDetours(route, list);
  };

  const measureDetours = async (route: Route, list: PlannedStation[]) => {
    const controller = new AbortController();
    detourRun.current = controller;
    const measured = measure(
      route.geometry.coordinates.length === route.durations.length
        ? { coordinates: route.geometry.coordinates, durations: route.durations }
        : { coordinates: route.geometry.coordinates, durations: route.geometry.coordinates.map(() => 0) },
    );
    // The cheapest stations first (for EV: in order along the route), at most what one request takes.
    const candidates = [...list]
      .sort((a, b) => (a.station.properties.price ?? 0) - (b.station.properties.price ?? 0) || a.km - b.km)
      .slice(0, MAX_DETOUR_STATIONS);
    const stations: DetourStation[] = candidates.map(({ station }) => {
      const [lon = 0, lat = 0] = station.geometry.coordinates;
      return {
        id: station.properties.id,
        lon,
        lat,
        ...anchorsFor(
          { coordinates: route.geometry.coordinates, durations: route.durations },
          measured,
          station.properties.routeFraction ?? 0,
        ),
      };
    });
    const { origin: from, destination: to } = ends.current ?? {
      origin: route.geometry.coordinates[0] ?? [0, 0],
      destination: route.geometry.coordinates.at(-1) ?? [0, 0],
    };
    setMeasuring(true);
    try {
      const result = await api.POST('/api/route-detour', {
        body: { stations, origin: from, destination: to, routeDuration: route.duration },
        parseAs: 'stream',
        signal: controller.signal,
      });
      if (!result.data) {
        setNotice({ kind: 'error', text: `Detours could not be measured (${problem(result)}).` });
        return;
      }
      await readDetours(result.data, (line) => {
        if (controller.signal.aborted) return;
        setPlanned((current) =>
          current.map((p) => (p.station.properties.id === line.id ? { ...p, detourMin: line.detourMin } : p)),
        );
      });
    } catch (error) {
      if (!controller.signal.aborted) setNotice({ kind: 'error', text: `Detours stopped: ${String(error)}` });
    } finally {
      if (detourRun.current === controller) setMeasuring(false);
    }
  };

  const plan = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setNotice(null);
    setRoutes([]);
    setPlanned([]);
    try {
      const from = await resolve(origin, 'start');
      const to = await resolve(destination, 'destination');
      const via = await Promise.all(waypoints.filter((w) => w.trim()).map((w) => resolve(w, 'waypoint')));
      ends.current = { origin: from, destination: to };
      const result = await api.POST('/api/route', {
        body: { origin: from, destination: to, ...(via.length > 0 && { waypoints: via }) },
      });
      if (!result.data) {
        const reason = problem(result);
        setNotice({
          kind: 'error',
          text:
            result.response.status === 502
              ? `No route: ${reason}. Routing may not be set up on this server, or no road connects these places.`
              : result.response.status === 429
                ? 'Too many route requests; wait a minute and try again.'
                : `No route (${reason}).`,
        });
        return;
      }
      setRoutes(result.data.routes);
      setChosen(0);
      props.onRoutes(result.data.routes, 0, corridorKm);
      const first = result.data.routes[0];
      if (first) await stationsAlong(first, corridorKm);
    } catch (error) {
      setNotice({ kind: 'error', text: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };

  const choose = (index: number) => {
    setChosen(index);
    props.onRoutes(routes, index, corridorKm);
    const route = routes[index];
    if (route) void stationsAlong(route, corridorKm);
  };

  const rel = useMemo(() => relativePrices(planned.map((p) => p.station)), [planned]);
  const ordered = useMemo(() => {
    const copy = [...planned];
    if (order === 'position') copy.sort((a, b) => a.km - b.km);
    else
      copy.sort(
        (a, b) => (a.station.properties.price ?? 0) - (b.station.properties.price ?? 0) || a.km - b.km,
      );
    return copy;
  }, [planned, order]);
  const best = useMemo(
    () =>
      ordered
        .filter((p) => p.detourMin !== undefined && p.detourMin >= 0 && p.detourMin <= maxDetour)
        .sort((a, b) => (a.station.properties.price ?? 0) - (b.station.properties.price ?? 0))[0],
    [ordered, maxDetour],
  );
  const measuredCount = planned.filter((p) => p.detourMin !== undefined).length;

  return (
    <section aria-labelledby="planner-title" class="planner">
      <h2 id="planner-title">Route planner</h2>
      <p class="muted small">A place, coordinates (lat, lon), or a click on the map for each end.</p>
      <form onSubmit={plan}>
        <div class="field">
          <label for="origin">From</label>
          <input
            id="origin"
            value={origin}
            required
            placeholder="Place, or lat, lon"
            onInput={(e) => setOrigin(e.currentTarget.value)}
          />
        </div>
        {waypoints.map((value, index) => (
          <div class="field" key={index}>
            <label for={`waypoint-${index}`}>Via {index + 1}</label>
            <div class="row">
              <input
                id={`waypoint-${index}`}
                class="grow"
                value={value}
                onInput={(e) => {
                  const text = e.currentTarget.value;
                  setWaypoints((list) => list.map((w, i) => (i === index ? text : w)));
                }}
              />
              <button
                type="button"
                aria-label={`Remove via ${index + 1}`}
                onClick={() => setWaypoints((list) => list.filter((_, i) => i !== index))}
              >
                ✕
              </button>
            </div>
          </div>
        ))}
        <div class="field">
          <label for="destination">To</label>
          <input
            id="destination"
            value={destination}
            required
            placeholder="Place, or lat, lon"
            onInput={(e) => setDestination(e.currentTarget.value)}
          />
        </div>
        <div class="row">
          <button
            type="button"
            disabled={waypoints.length >= MAX_WAYPOINTS}
            onClick={() => setWaypoints((list) => [...list, ''])}
          >
            Add a stop
          </button>
          <div class="field">
            <label for="corridor">Corridor (km each side)</label>
            <input
              id="corridor"
              type="number"
              min={0.5}
              max={50}
              step={0.5}
              value={corridorKm}
              onInput={(e) => setCorridorKm(Number(e.currentTarget.value) || 5)}
            />
          </div>
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Planning…' : 'Plan route'}
          </button>
        </div>
      </form>
      {notice && (
        <p class={`notice ${notice.kind}`} role="alert">
          {notice.text}
        </p>
      )}
      {routes.length > 0 && (
        <fieldset class="routes">
          <legend>Routes</legend>
          {routes.map((route, index) => (
            <label key={`${route.distance}-${route.duration}`} class="choice">
              <input type="radio" name="route" checked={index === chosen} onChange={() => choose(index)} />
              {index === 0 ? 'Fastest' : `Alternative ${index}`}: {route.distance.toFixed(0)} km,{' '}
              {formatDuration(route.duration)}
            </label>
          ))}
        </fieldset>
      )}
      {planned.length > 0 && (
        <div class="along">
          <h3>
            Stations along the route <span class="muted">({planned.length})</span>
          </h3>
          <p class="muted" aria-live="polite" data-testid="detour-progress">
            {measuring
              ? `Measuring detours… ${measuredCount} of ${Math.min(planned.length, MAX_DETOUR_STATIONS)}`
              : `Detours measured for ${measuredCount} stations.`}
          </p>
          <div class="row">
            <div class="field">
              <label for="order">Order</label>
              <select
                id="order"
                value={order}
                onChange={(e) => setOrder(e.currentTarget.value as 'price' | 'position')}
              >
                <option value="price">by price</option>
                <option value="position">by position</option>
              </select>
            </div>
            <div class="field">
              <label for="max-detour">Cheapest within (minutes of detour)</label>
              <input
                id="max-detour"
                type="number"
                min={0}
                max={60}
                value={maxDetour}
                onInput={(e) => setMaxDetour(Number(e.currentTarget.value) || 0)}
              />
            </div>
          </div>
          <p class="notice ok" data-testid="best-within">
            {best
              ? `Cheapest within ${maxDetour} min: ${best.station.properties.name} at km ${best.km.toFixed(0)}, ${formatPrice(best.station) || `${best.station.properties.powerKw ?? '?'} kW`}, +${best.detourMin} min.`
              : `No station measured yet within ${maxDetour} min of detour.`}
          </p>
          <ol class="stations" data-testid="route-stations">
            {ordered.slice(0, 60).map((p) => (
              <li key={p.station.properties.id}>
                <StationButton
                  station={p.station}
                  rel={rel.get(p.station.properties.id)}
                  onSelect={props.onSelect}
                  extra={
                    <span class="detour muted">
                      km {p.km.toFixed(0)} ·{' '}
                      {p.detourMin === undefined
                        ? '…'
                        : p.detourMin < 0
                          ? 'no detour result'
                          : `+${p.detourMin} min`}
                    </span>
                  }
                />
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
