import { useState } from 'preact/hooks';
import { Notice } from '../../shared/notice';
import type { GeocodeResult } from '../api';
import { api } from '../client';
import { geocode } from '../planner/trip';
import type { Bbox } from './station-map';

/** The place search: places by name near the view, each shown on the map when picked. */
export function PlaceSearch(props: { near: Bbox | null; onShow: (place: GeocodeResult) => void }) {
  const [q, setQ] = useState('');
  const [places, setPlaces] = useState<GeocodeResult[]>([]);
  const [error, setError] = useState<string | null>(null);
  const search = async (event: Event) => {
    event.preventDefault();
    if (!q.trim()) return;
    const found = await geocode(api, q.trim(), props.near);
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
