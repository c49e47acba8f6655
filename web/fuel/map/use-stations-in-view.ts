/**
 * The stations of the box in view for the chosen fuel, asked for as the view settles (at once the first
 * time), and what to tell the reader of them: that the answer was capped, that nothing is in view, or
 * that the chosen country has no data loaded at all.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { type Config, type FuelCode, problem, type Station } from '../api';
import { api } from '../client';
import type { Bbox } from './station-map';

export type Said = { kind: 'ok' | 'warning' | 'error'; text: string } | null;

export function useStationsInView(
  config: Config,
  view: { bbox: Bbox | null; fuel: FuelCode; country: string },
  onStations: (stations: Station[]) => void,
) {
  const [stations, setStations] = useState<Station[]>([]);
  const [notice, setNotice] = useState<Said>(null);
  /** The countries whose stations are loaded (`/api/stats`), to tell an empty view from a country with no data. */
  const [loadedCountries, setLoadedCountries] = useState<Set<string> | null>(null);
  const firstLoad = useRef(true);

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

  /** Why the view is empty: the chosen country has no data loaded at all, or nothing is in view. */
  const emptyViewNotice = (): Said => {
    const name = config.enabledCountries.find((c) => c.code === view.country)?.name ?? view.country;
    if (loadedCountries && !loadedCountries.has(view.country))
      return {
        kind: 'warning',
        text: `No data is loaded for ${name} yet: its stations and prices appear once its feed has been scraped.`,
      };
    return { kind: 'warning', text: 'No stations with this fuel in view. Zoom out or move the map.' };
  };

  useEffect(() => {
    const { bbox, fuel } = view;
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
          setNotice({ kind: 'error', text: `Stations could not be loaded (${problem(result)}).` });
          return;
        }
        const features = result.data.features;
        setStations(features);
        // A box holding more than the route's cap answers an arbitrary part of it, marked by a header.
        const partial = result.response.headers.get('x-result-truncated') === 'true';
        setNotice(
          features.length === 0
            ? emptyViewNotice()
            : partial
              ? {
                  kind: 'warning',
                  text: `More stations are in view than the list holds (${features.length.toLocaleString()}): the list is a sample spread over the view, and the map shows every one.`,
                }
              : null,
        );
        onStations(features);
      },
      firstLoad.current ? 0 : 150,
    );
    firstLoad.current = false;
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [view.bbox, view.fuel]);

  return { stations, notice, firstLoad: firstLoad.current };
}
