/**
 * Small stand-ins for the routing engine (OSRM HTTP API), the geocoder (Photon) and the central bank's
 * rate feed, on 127.0.0.1, answering in the real wire formats. Each can be switched to fail in the ways the
 * real ones do: an error status, a body that is not JSON/XML, a slow answer, or no answer at all.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { cumulativeKm, greatCircleKm, intermediate } from '../geo';
import type { LonLat } from '../store/store';

export type FailureMode = 'ok' | 'error' | 'garbage' | 'hang';

interface Running {
  url: string;
  close(): Promise<void>;
}

async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<Running & { server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

function garbage(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'text/html' });
  res.end('<html><body>502 Bad Gateway</body></html>');
}

// ---------------------------------------------------------------------------------------------------------

export interface FakeOsrm extends Running {
  mode: FailureMode | 'no-route';
  /** Milliseconds before each answer. */
  delayMs: number;
  /** Road kilometres per straight kilometre, and speed in metres per second. */
  roadFactor: number;
  speed: number;
  /** Points per leg of the geometry (the real engine sends one per road node). */
  pointsPerLeg: number;
  /** Overrides the seconds of a route through these points; null answers NoRoute. */
  durationOf?: (points: LonLat[]) => number | null;
  /** Every request's path and query, in arrival order. */
  readonly requests: URL[];
  readonly inflight: number;
  readonly maxInflight: number;
  /** Requests whose socket closed before the answer. */
  readonly abandoned: number;
  /** Holds every answer until `release()`. */
  hold(): void;
  release(): void;
  reset(): void;
}

function osrmRoute(points: LonLat[], fake: FakeOsrm, detourVia?: LonLat) {
  const stops = detourVia ? [points[0] as LonLat, detourVia, points[1] as LonLat] : points;
  const legs: { coordinates: LonLat[]; durations: number[]; distance: number; duration: number }[] = [];
  for (let i = 0; i < points.length - 1; i++) {
    const from = points[i] as LonLat;
    const to = points[i + 1] as LonLat;
    const path = detourVia && points.length === 2 ? stops : [from, to];
    const coordinates: LonLat[] = [];
    for (let p = 0; p < path.length - 1; p++) {
      const n = Math.max(2, Math.round(fake.pointsPerLeg / (path.length - 1)));
      for (let k = p === 0 ? 0 : 1; k < n; k++) {
        // The engine sends coordinates to 6 decimals.
        const [lon, lat] = intermediate(path[p] as LonLat, path[p + 1] as LonLat, k / (n - 1));
        coordinates.push([Math.round(lon * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6]);
      }
    }
    const cum = cumulativeKm(coordinates);
    const durations = coordinates
      .slice(1)
      .map((_, k) => (((cum[k + 1] ?? 0) - (cum[k] ?? 0)) * 1000 * fake.roadFactor) / fake.speed);
    const distance = (cum.at(-1) ?? 0) * 1000 * fake.roadFactor;
    legs.push({ coordinates, durations, distance, duration: distance / fake.speed });
  }
  const coordinates = legs.flatMap((leg, i) => (i === 0 ? leg.coordinates : leg.coordinates.slice(1)));
  const distance = legs.reduce((sum, leg) => sum + leg.distance, 0);
  const duration = fake.durationOf?.(points) ?? legs.reduce((sum, leg) => sum + leg.duration, 0);
  return {
    distance,
    duration,
    weight: duration,
    weight_name: 'routability',
    geometry: { type: 'LineString', coordinates },
    legs: legs.map((leg) => ({
      distance: leg.distance,
      duration: leg.duration,
      weight: leg.duration,
      summary: '',
      steps: [],
      annotation: { duration: leg.durations },
    })),
  };
}

export async function startFakeOsrm(): Promise<FakeOsrm> {
  let release: () => void = () => {};
  let held: Promise<void> | undefined;
  let inflight = 0;
  let maxInflight = 0;
  let abandoned = 0;
  const requests: URL[] = [];
  const fake = {
    mode: 'ok',
    delayMs: 0,
    roadFactor: 1.25,
    speed: 25,
    pointsPerLeg: 40,
    durationOf: undefined,
    requests,
    get inflight() {
      return inflight;
    },
    get maxInflight() {
      return maxInflight;
    },
    get abandoned() {
      return abandoned;
    },
    hold() {
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
    release() {
      held = undefined;
      release();
    },
    reset() {
      fake.mode = 'ok';
      fake.delayMs = 0;
      fake.durationOf = undefined;
      fake.pointsPerLeg = 40;
      requests.length = 0;
      maxInflight = 0;
      abandoned = 0;
    },
  } as FakeOsrm;
  const running = await serve(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://osrm');
    requests.push(url);
    inflight++;
    maxInflight = Math.max(maxInflight, inflight);
    let gone = false;
    res.on('close', () => {
      inflight--;
      if (!res.writableFinished) {
        gone = true;
        abandoned++;
      }
    });
    if (fake.delayMs > 0) await sleep(fake.delayMs);
    if (held) await held;
    if (gone || fake.mode === 'hang') return;
    const match = /^\/route\/v1\/[^/]+\/(.+)$/.exec(url.pathname);
    const points = match?.[1]
      ?.split(';')
      .map((pair) => pair.split(',').map(Number) as LonLat)
      .filter((p) => p.length === 2 && p.every(Number.isFinite));
    if (!points || points.length < 2) {
      json(res, 400, {
        code: 'InvalidUrl',
        message: `URL string malformed close to position 1: "${url.pathname}"`,
      });
      return;
    }
    if (fake.mode === 'error') return json(res, 500, { code: 'InternalError', message: 'engine failure' });
    if (fake.mode === 'garbage') return garbage(res);
    if (fake.mode === 'no-route' || fake.durationOf?.(points) === null) {
      return json(res, 400, { code: 'NoRoute', message: 'Impossible route between points' });
    }
    const alternativesParam = url.searchParams.get('alternatives');
    const wanted = alternativesParam === 'true' ? 1 : Number(alternativesParam) || 0;
    const alternatives = points.length === 2 ? Math.min(wanted, 2) : 0;
    const overview = url.searchParams.get('overview') !== 'false';
    const routes = [osrmRoute(points, fake)];
    for (let a = 1; a <= alternatives; a++) {
      // A longer way round: through a point beside the middle of the straight line.
      const mid = intermediate(points[0] as LonLat, points[1] as LonLat, 0.5);
      const km = greatCircleKm(points[0] as LonLat, points[1] as LonLat) * 0.1 * a;
      routes.push(osrmRoute(points, fake, [mid[0], mid[1] + km / 111]));
    }
    json(res, 200, {
      code: 'Ok',
      routes: routes.map((r) => (overview ? r : { ...r, geometry: undefined })),
      waypoints: points.map((location) => ({ location, name: '', distance: 0, hint: 'fake' })),
    });
  });
  return Object.assign(fake, { url: running.url, close: running.close });
}

// ---------------------------------------------------------------------------------------------------------

export interface PhotonFeature {
  type: 'Feature';
  geometry: { type: 'Point'; coordinates: unknown };
  properties: Record<string, unknown>;
}

export interface FakePhoton extends Running {
  mode: FailureMode;
  /** Answer to every query (Photon ranks; the fake does not). */
  features: PhotonFeature[];
  readonly requests: URL[];
  reset(): void;
}

const place = (
  name: string | undefined,
  coordinates: unknown,
  extra: Record<string, unknown> = {},
): PhotonFeature => ({
  type: 'Feature',
  geometry: { type: 'Point', coordinates },
  properties: {
    osm_id: 26_808_432,
    osm_type: 'N',
    osm_key: 'place',
    osm_value: 'square',
    ...(name === undefined ? {} : { name }),
    ...extra,
  },
});

/** A realistic answer for "Puerta del Sol": good places, one without a name, two without valid coordinates. */
export const SAMPLE_PHOTON_FEATURES: PhotonFeature[] = [
  place('Puerta del Sol', [-3.7035, 40.4169], {
    city: 'Madrid',
    state: 'Comunidad de Madrid',
    country: 'España',
    countrycode: 'ES',
  }),
  place('Sol', [-3.7033, 40.4167], { city: 'Madrid', state: 'Comunidad de Madrid', country: 'España' }),
  place('Broken', [-3.7, 'x']),
  place(undefined, [-4.0236, 39.8606], { city: 'Toledo', state: 'Castilla-La Mancha', country: 'España' }),
  place('Off the globe', [-3.7, 140]),
  place('Puerta del Sol', [-0.3763, 39.4699], { city: 'València', country: 'España' }),
  place('Sol de Mayo', [-58.38, -34.6], { country: 'Argentina' }),
  place('Calle del Sol', [-5.98, 37.39], { city: 'Sevilla', country: 'España' }),
];

export async function startFakePhoton(): Promise<FakePhoton> {
  const requests: URL[] = [];
  const fake = {
    mode: 'ok',
    features: SAMPLE_PHOTON_FEATURES,
    requests,
    reset() {
      fake.mode = 'ok';
      fake.features = SAMPLE_PHOTON_FEATURES;
      requests.length = 0;
    },
  } as FakePhoton;
  const running = await serve((req, res) => {
    const url = new URL(req.url ?? '/', 'http://photon');
    requests.push(url);
    if (fake.mode === 'hang') return;
    if (fake.mode === 'error') return json(res, 500, { message: 'internal error' });
    if (fake.mode === 'garbage') return garbage(res);
    if (url.pathname !== '/api' || !url.searchParams.get('q')) {
      return json(res, 400, { message: "missing search term 'q': /?q=berlin" });
    }
    json(res, 200, { type: 'FeatureCollection', features: fake.features });
  });
  return Object.assign(fake, { url: running.url, close: running.close });
}

// ---------------------------------------------------------------------------------------------------------

export interface FakeEcb extends Running {
  mode: FailureMode;
  date: string;
  rates: Record<string, number>;
  readonly requests: number;
  reset(): void;
}

export const SAMPLE_ECB_RATES: Record<string, number> = {
  USD: 1.1312,
  JPY: 163.12,
  CZK: 24.936,
  DKK: 7.4601,
  GBP: 0.8479,
  HUF: 402.15,
  PLN: 4.2693,
  RON: 5.0761,
  SEK: 10.9355,
  CHF: 0.9371,
  ISK: 143.9,
  NOK: 11.5935,
  TRY: 43.8621,
  AUD: 1.7602,
  MXN: 21.9864,
};

export function ecbXml(date: string, rates: Record<string, number>): string {
  const cubes = Object.entries(rates)
    .map(([currency, rate]) => `\t\t\t<Cube currency='${currency}' rate='${rate}'/>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
\t\t<Cube time='${date}'>
${cubes}
\t\t</Cube>
\t</Cube>
</gesmes:Envelope>
`;
}

export async function startFakeEcb(): Promise<FakeEcb> {
  let requests = 0;
  const fake = {
    mode: 'ok',
    date: '2026-05-11',
    rates: SAMPLE_ECB_RATES,
    get requests() {
      return requests;
    },
    reset() {
      fake.mode = 'ok';
      fake.date = '2026-05-11';
      fake.rates = SAMPLE_ECB_RATES;
      requests = 0;
    },
  } as FakeEcb;
  const running = await serve((_req, res) => {
    requests++;
    if (fake.mode === 'hang') return;
    if (fake.mode === 'error') {
      res.writeHead(503, { 'Content-Type': 'text/html' });
      res.end('<html><body>Service Unavailable</body></html>');
      return;
    }
    if (fake.mode === 'garbage') return garbage(res);
    res.writeHead(200, { 'Content-Type': 'text/xml' });
    res.end(ecbXml(fake.date, fake.rates));
  });
  return Object.assign(fake, {
    url: `${running.url}/stats/eurofxref/eurofxref-daily.xml`,
    close: running.close,
  });
}
