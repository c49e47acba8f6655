import { useEffect, useMemo, useState } from 'preact/hooks';
import { Notice } from '../../shared/notice';
import { type FuelCode, formatPrice, type LonLat, type Route, type Station } from '../api';
import { api } from '../client';
import type { Bbox } from '../map/station-map';
import { relativePrices } from '../prices';
import { StationButton } from '../stations/station-button';
import { bestWithin, byPrice, MAX_DETOUR_STATIONS } from './trip';
import { usePlanner } from './use-planner';

const MAX_WAYPOINTS = 5;

const formatDuration = (seconds: number) => {
  const minutes = Math.round(seconds / 60);
  return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
};

/** The route planner: the ends and stops typed or clicked, the routes, the stations along the one chosen. */
export function Planner(props: {
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
  const [order, setOrder] = useState<'price' | 'position'>('price');
  const [maxDetour, setMaxDetour] = useState(5);
  const trip = usePlanner({
    api,
    fuel: props.fuel,
    near: props.near,
    onRoutes: props.onRoutes,
    onRouteStations: props.onRouteStations,
  });

  useEffect(() => {
    if (!props.picked) return;
    const [lon = 0, lat = 0] = props.picked.at;
    const text = `${lat.toFixed(5)}, ${lon.toFixed(5)}`;
    if (origin.trim() === '') setOrigin(text);
    else setDestination(text);
  }, [props.picked]);

  const rel = useMemo(() => relativePrices(trip.planned.map((p) => p.station)), [trip.planned]);
  const ordered = useMemo(() => {
    const copy = [...trip.planned];
    return order === 'position' ? copy.sort((a, b) => a.km - b.km) : copy.sort(byPrice);
  }, [trip.planned, order]);
  const best = useMemo(() => bestWithin(ordered, maxDetour), [ordered, maxDetour]);
  const measuredCount = trip.planned.filter((p) => p.detourMin !== undefined).length;

  return (
    <section aria-labelledby="planner-title" class="planner">
      <h2 id="planner-title">Route planner</h2>
      <p class="muted small">A place, coordinates (lat, lon), or a click on the map for each end.</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void trip.plan({ origin, destination, waypoints }, corridorKm);
        }}
      >
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
          <button type="submit" class="primary" disabled={trip.busy}>
            {trip.busy ? 'Planning…' : 'Plan route'}
          </button>
        </div>
      </form>
      {trip.notice && <Notice kind={trip.notice.kind}>{trip.notice.text}</Notice>}
      {trip.routes.length > 0 && (
        <fieldset class="routes">
          <legend>Routes</legend>
          {trip.routes.map((route, index) => (
            <label key={`${route.distance}-${route.duration}`} class="choice">
              <input
                type="radio"
                name="route"
                checked={index === trip.chosen}
                onChange={() => trip.choose(index, corridorKm)}
              />
              {index === 0 ? 'Fastest' : `Alternative ${index}`}: {route.distance.toFixed(0)} km,{' '}
              {formatDuration(route.duration)}
            </label>
          ))}
        </fieldset>
      )}
      {trip.planned.length > 0 && (
        <div class="along">
          <h3>
            Stations along the route <span class="muted">({trip.planned.length})</span>
          </h3>
          <p class="muted" aria-live="polite" data-testid="detour-progress">
            {trip.measuring
              ? `Measuring detours… ${measuredCount} of ${Math.min(trip.planned.length, MAX_DETOUR_STATIONS)}`
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
