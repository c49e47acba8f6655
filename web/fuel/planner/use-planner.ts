/**
 * The route planner's state over trip.ts: the routes found and the one chosen, the stations along it and
 * their detours as they are measured, what to tell the reader, and one detour stream at a time (a new
 * plan or another route stops the last one).
 */
import { useRef, useState } from 'preact/hooks';
import type { FuelApi, FuelCode, Route, Station } from '../api';
import type { Bbox } from '../map/station-map';
import {
  findRoutes,
  measureDetours,
  type PlannedStation,
  stationsAlong,
  type TripEnds,
  TripError,
} from './trip';

export type Said = { kind: 'ok' | 'warning' | 'error'; text: string } | null;

export interface PlannerOptions {
  api: FuelApi;
  fuel: FuelCode;
  near: Bbox | null;
  onRoutes: (routes: Route[], chosen: number, corridorKm: number) => void;
  onRouteStations: (stations: Station[]) => void;
}

const said = (error: unknown): Said =>
  error instanceof TripError
    ? { kind: error.kind, text: error.message }
    : { kind: 'error', text: error instanceof Error ? error.message : String(error) };

export function usePlanner(options: PlannerOptions) {
  const [routes, setRoutes] = useState<Route[]>([]);
  const [chosen, setChosen] = useState(0);
  const [planned, setPlanned] = useState<PlannedStation[]>([]);
  const [notice, setNotice] = useState<Said>(null);
  const [busy, setBusy] = useState(false);
  const [measuring, setMeasuring] = useState(false);
  const detourRun = useRef<AbortController | null>(null);
  const ends = useRef<TripEnds | null>(null);

  /** The stations along `route`, then their detours. */
  const along = async (route: Route, corridorKm: number) => {
    detourRun.current?.abort();
    setPlanned([]);
    const list = await stationsAlong(options.api, route, options.fuel, corridorKm);
    setPlanned(list);
    options.onRouteStations(list.map((p) => p.station));
    if (list.length === 0)
      throw new TripError('No stations with this fuel within the corridor. Try a wider corridor.', 'warning');
    setNotice(null);
    const controller = new AbortController();
    detourRun.current = controller;
    setMeasuring(true);
    try {
      await measureDetours(options.api, route, list, ends.current, controller.signal, (line) =>
        setPlanned((current) =>
          current.map((p) => (p.station.properties.id === line.id ? { ...p, detourMin: line.detourMin } : p)),
        ),
      );
    } finally {
      if (detourRun.current === controller) setMeasuring(false);
    }
  };

  return {
    routes,
    chosen,
    planned,
    notice,
    busy,
    measuring,
    /** Plans the trip typed: its routes, the first chosen, the stations along it and their detours. */
    plan: async (
      typed: { origin: string; destination: string; waypoints: readonly string[] },
      corridorKm: number,
    ) => {
      setBusy(true);
      setNotice(null);
      setRoutes([]);
      setPlanned([]);
      try {
        const found = await findRoutes(options.api, typed, options.near);
        ends.current = found.ends;
        setRoutes(found.routes);
        setChosen(0);
        options.onRoutes(found.routes, 0, corridorKm);
        const first = found.routes[0];
        if (first) await along(first, corridorKm);
      } catch (error) {
        setNotice(said(error));
      } finally {
        setBusy(false);
      }
    },
    /** Another of the routes found: its stations and detours instead. */
    choose: (index: number, corridorKm: number) => {
      setChosen(index);
      options.onRoutes(routes, index, corridorKm);
      const route = routes[index];
      if (route) void along(route, corridorKm).catch((error) => setNotice(said(error)));
    },
  };
}
