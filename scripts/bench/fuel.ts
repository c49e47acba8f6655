/**
 * `npm run bench -- fuel [--backend=sqlite|postgres|both] [--stations=200000] [--iterations=40]
 *  [--concurrency=4] [--seconds=5] [--region=spain|europe] [--reuse]`
 *
 * Loads a Spain-sized synthetic dataset (clustered around cities, fuel stations with B7/E5 prices and EV
 * chargers), or with `--region=europe` the stations spread over twenty countries (fuel-europe.ts), serves it with the real app on 127.0.0.1, and measures a country-sized /api/stations box,
 * /api/stations/nearest and /api/route-stations on a 2,000-point 1,000 km line: p50/p95 of sequential
 * requests, requests/s at a fixed concurrency, and the ratio of each p50 to the bare store query it wraps.
 * On PostgreSQL it also runs the original service's own single-statement PostGIS queries on the same data
 * (`ST_Within` box, planar `ST_DWithin` nearest, geography corridor, each with a lateral latest-price join)
 * and prints every store query as a ratio to them; and it times writing 20,000 features as objects then
 * `JSON.stringify` against writing them in pieces of about 32 KB; and the map's vector tiles (fuel-tiles.ts).
 * Not a test: the figures go to scripts/bench/README.md. `--reuse` keeps the loaded stations for the next run
 * with the same region and count (/tmp/specyard-fuel-bench/fuel-<region>-<N>.db, PostgreSQL database
 * specyard_fuel_bench_<region>_<N>) instead of dropping them; a load that stopped half-way is run again over it.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { silentLogger } from '../../src/common/logger';
import { listen } from '../../src/common/serve';
import { createTestDatabase } from '../../src/common/testing/postgres';
import { loadFuelConfig } from '../../src/fuel/config';
import { featureCollection, featureTextCollection, stationFeature } from '../../src/fuel/domain/features';
import { TILE_CACHE_BYTES, TileCache } from '../../src/fuel/domain/tiles';
import { createFuelApp } from '../../src/fuel/http/app';
import { clustersLine } from '../../src/fuel/scrapers/summary';
import { featureRunsOf } from '../../src/fuel/store/feature-text';
import { openPostgresStore } from '../../src/fuel/store/postgres';
import { openSqliteStore } from '../../src/fuel/store/sqlite';
import type { ClusterRefresh, FuelStore, StationRow } from '../../src/fuel/store/store';
import { stationRows } from '../../src/fuel/testing/stores';
import { dataset, longLine, SPAIN } from './fuel-data';
import { EUROPE_LAYOUT, type EuropeCountry, europeCountries } from './fuel-europe';
import { printTiles, type SpainViewRow, spainView, type TileZoomRow, tileZooms } from './fuel-tiles';
import { vacuumAnalyze } from './vacuum';

const { values } = parseArgs({
  options: {
    backend: { type: 'string', default: 'both' },
    stations: { type: 'string', default: '200000' },
    iterations: { type: 'string', default: '40' },
    concurrency: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '5' },
    region: { type: 'string', default: 'spain' },
    reuse: { type: 'boolean', default: false },
  },
});
const STATIONS = Number(values.stations);
const ITERATIONS = Number(values.iterations);
const CONCURRENCY = Number(values.concurrency);
const SECONDS = Number(values.seconds);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

async function timed(work: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 3; i++) await work();
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const t = performance.now();
    await work();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95) };
}

async function throughput(work: () => Promise<unknown>): Promise<number> {
  const until = performance.now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        await work();
        done++;
      }
    }),
  );
  return done / SECONDS;
}

/** The original service's queries, as its documentation and tests describe them (one statement each). */
const UPSTREAM = {
  box: `SELECT s.id, s.external_id, ST_X(s.geom) AS lon, ST_Y(s.geom) AS lat, lp.price, lp.currency, lp.reported_at
        FROM stations s
        CROSS JOIN LATERAL (
          SELECT p.price, p.currency, p.reported_at FROM prices p
          WHERE p.station_id = s.id AND p.fuel = $5 ORDER BY p.reported_at DESC LIMIT 1) lp
        WHERE ST_Within(s.geom, ST_MakeEnvelope($1, $2, $3, $4, 4326))
        LIMIT 20000`,
  nearest: `SELECT s.id, s.external_id, lp.price, ST_Distance(s.geom, ST_SetSRID(ST_MakePoint($1, $2), 4326)) * 111.32 AS distance_km
        FROM stations s
        CROSS JOIN LATERAL (
          SELECT p.price, p.currency, p.reported_at FROM prices p
          WHERE p.station_id = s.id AND p.fuel = $4 ORDER BY p.reported_at DESC LIMIT 1) lp
        WHERE ST_DWithin(s.geom, ST_SetSRID(ST_MakePoint($1, $2), 4326), $3 / 111.32)
        ORDER BY distance_km LIMIT $5`,
  corridor: `WITH route AS (SELECT ST_GeomFromText($1, 4326) AS g)
        SELECT s.id, s.external_id, lp.price, ST_LineLocatePoint(route.g, s.geom) AS route_fraction
        FROM stations s, route
        CROSS JOIN LATERAL (
          SELECT p.price, p.currency, p.reported_at FROM prices p
          WHERE p.station_id = s.id AND p.fuel = $2 ORDER BY p.reported_at DESC LIMIT 1) lp
        WHERE s.geom && ST_Expand(route.g, $4, $3)
          AND ST_DWithin(s.geom::geography, route.g::geography, $5 * 1000)
        ORDER BY route_fraction LIMIT 5000`,
};

interface Row {
  backend: string;
  scenario: string;
  features: number;
  p50: number;
  p95: number;
  rps: number;
  storeP50: number;
  /** p50 of the original service's query for the same scenario (PostgreSQL only). */
  upstreamP50?: number;
}

/** The densest city's middle, where the tiles of the higher zooms are timed. */
const MADRID_CENTRE: [number, number, number, number] = [-3.75, 40.38, -3.65, 40.45];
const spainRows: SpainViewRow[] = [];
const zoomRows: TileZoomRow[] = [];
const clusterRows: (ClusterRefresh & { backend: string })[] = [];

/**
 * The process's resident memory: after the load (collected first when node runs with --expose-gc) and the
 * most seen while the server answered, sampled every 200 ms. The benchmark's client and its data live in
 * the same process, so these are upper bounds of the server's.
 */
const memory = { afterLoad: 0, peak: 0 };
const settledRss = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
};
setInterval(() => {
  memory.peak = Math.max(memory.peak, process.memoryUsage().rss);
}, 200).unref();

/** Upstream p50 per scenario, from the PostgreSQL pass, to compare each backend's store query with. */
const upstreamP50: number[] = [];

/**
 * Loads the dataset into the store. Its own function: an async function keeps its locals until it returns,
 * and the dataset held while the queries ran (1,000,000 stations' objects) made the process's collections
 * far costlier than a server's, which keeps no feed's records after a run.
 */
async function load(name: string, store: FuelStore, settle?: () => Promise<void>): Promise<void> {
  if (kept && existsSync(kept.loaded(name))) {
    const { totals } = await store.stats();
    console.error(`${name}: reusing ${totals.stations} stations and ${totals.prices} prices`);
    return;
  }
  const t = performance.now();
  let stations = 0;
  let inserted = 0;
  const countries: Iterable<EuropeCountry> =
    values.region === 'europe'
      ? europeCountries(STATIONS)
      : (({ stations: list, prices }) => [{ code: 'ES', stations: list, prices }])(dataset(STATIONS));
  for (const country of countries) {
    stations += (await store.upsertStations(country.stations, { batchSize: 1000 })).count;
    inserted += (await store.replacePrices('bench', country.code, country.prices)).inserted;
    if (STATIONS > 1_000_000) console.error(`${name}: ${country.code} loaded (${stations} stations)`);
  }
  await settle?.();
  console.error(
    `${name}: loaded ${stations} stations and ${inserted} prices in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  if (kept) writeFileSync(kept.loaded(name), '');
}

async function benchBackend(
  name: string,
  store: FuelStore,
  settle?: () => Promise<void>,
  databaseUrl?: string,
): Promise<Row[]> {
  await load(name, store, settle);
  const config = { ...loadFuelConfig({ APP_ENABLED_COUNTRIES: 'ES' }), validateResponses: false };
  const fuelApp = createFuelApp({ config, store, logger: silentLogger() });
  const server = await listen(fuelApp.app, 0);
  memory.afterLoad = settledRss();
  memory.peak = memory.afterLoad;
  // A 20,000-station answer keeps the event loop busy; with several clients a kept-alive socket can wait
  // longer than Node's 5 s idle timeout for its next request to be read, and the server would reset it.
  // The cluster build after the queries holds this process's event loop too: 148 s at 10,000,000.
  server.server.keepAliveTimeout = 600_000;
  let client = 0;
  const line = longLine();
  const maxLat = Math.max(...line.map((p) => Math.abs(p[1])));
  const padLat = (5 / 111.32) * 1.2;
  const padLon = padLat / Math.cos((Math.min(85, maxLat) * Math.PI) / 180);
  const wkt = `LINESTRING(${line.map(([lon, lat]) => `${lon} ${lat}`).join(',')})`;
  const upstream = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 1 }) : undefined;
  const scenarios = [
    {
      upstream: () => upstream?.query(UPSTREAM.box, [...SPAIN, 'B7']),
      scenario: '/api/stations Spain box, B7',
      http: () => fetch(`${server.url}/api/stations?bbox=${SPAIN.join(',')}&fuel=B7`),
      // The route reads the box as Feature texts written by the database (stationFeaturesInBox).
      store: () => store.stationFeaturesInBox({ bbox: SPAIN, fuel: 'B7', limit: 20_000 }),
    },
    {
      upstream: () => upstream?.query(UPSTREAM.nearest, [-3.7038, 40.4168, 10, 'B7', 10]),
      scenario: '/api/stations/nearest Madrid, 10 km, limit 10',
      http: () =>
        fetch(`${server.url}/api/stations/nearest?lat=40.4168&lon=-3.7038&radius_km=10&fuel=B7&limit=10`),
      store: () => store.nearestStations({ lon: -3.7038, lat: 40.4168, radiusKm: 10, fuel: 'B7', limit: 10 }),
    },
    {
      upstream: () => upstream?.query(UPSTREAM.corridor, [wkt, 'B7', padLat, padLon, 5]),
      scenario: '/api/route-stations 2,000 points, 1,000 km, 5 km',
      http: () =>
        fetch(`${server.url}/api/route-stations`, {
          method: 'POST',
          // A new client address per request: the bench measures the query, not the rate limit.
          headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.${client++ % 250}.0.1` },
          body: JSON.stringify({
            geometry: { type: 'LineString', coordinates: line },
            fuel: 'B7',
            corridorKm: 5,
          }),
        }),
      store: () => store.stationFeaturesAlongLine({ line, fuel: 'B7', corridorKm: 5, limit: 5_000 }),
    },
  ];
  const rows: Row[] = [];
  try {
    for (const s of scenarios) {
      const first = await s.http();
      if (first.status !== 200) throw new Error(`${s.scenario}: status ${first.status}`);
      const features = ((await first.json()) as { features: unknown[] }).features.length;
      const call = async () => {
        const res = await s.http();
        await res.arrayBuffer();
      };
      const http = await timed(call);
      const bare = await timed(s.store);
      const rps = await throughput(call);
      const row: Row = { backend: name, scenario: s.scenario, features, ...http, rps, storeP50: bare.p50 };
      if (upstream) {
        const original = await timed(async () => s.upstream());
        upstreamP50[scenarios.indexOf(s)] = original.p50;
      }
      rows.push(row);
      console.error(`${name}: ${s.scenario} done`);
    }
    // The tiles computed from the stations, then from the cluster table built after the load (as the
    // scrape thread builds it after each run).
    // Past 1,000,000 stations a low zoom's tile from the stations takes seconds: only the table's.
    if (STATIONS <= 1_000_000) {
      const live = `${name}, from the stations`;
      spainRows.push(await spainView(live, server.url, SPAIN, ITERATIONS));
      zoomRows.push(...(await tileZooms(live, server.url, SPAIN, MADRID_CENTRE, ITERATIONS)));
    }
    const clusters = await store.refreshStationClusters();
    // The tiles kept from the stations' pass would answer the table's: its cold figures start empty.
    fuelApp.wiring.tiles = new TileCache(TILE_CACHE_BYTES);
    clusterRows.push({ backend: name, ...clusters });
    console.error(`${name}: ${clustersLine(clusters)}`);
    const table = `${name}, cluster table`;
    spainRows.push(await spainView(table, server.url, SPAIN, ITERATIONS));
    zoomRows.push(...(await tileZooms(table, server.url, SPAIN, MADRID_CENTRE, ITERATIONS)));
    const box = { bbox: SPAIN, fuel: 'B7', limit: 20_000 };
    serialisation(
      name,
      (await stationRows(store).stationsInBox(box)).stations,
      // Each Feature's text again, one string per Feature, as a store reads them.
      (JSON.parse(`[${[...(await store.stationFeaturesInBox(box)).runs].join(',')}]`) as unknown[]).map((f) =>
        JSON.stringify(f),
      ),
    );
  } finally {
    // The clients' kept-alive sockets would hold the close for the 600 s set above.
    server.server.closeAllConnections();
    await server.close();
    await upstream?.end();
  }
  return rows;
}

/**
 * Writing the 20,000-feature answer, as UTF-8 bytes (what the socket sends): the rows as objects then one
 * JSON.stringify, against the Feature texts joined in runs of about 32 KB (what the routes do).
 */
function serialisation(name: string, rows: StationRow[], texts: string[]): void {
  const asObjects = () =>
    Buffer.byteLength(JSON.stringify(featureCollection(rows.map((r) => stationFeature(r, 'B7')))));
  const asText = () => {
    let bytes = 0;
    for (const piece of featureTextCollection(featureRunsOf(texts, (text) => text))) {
      bytes += Buffer.byteLength(piece);
    }
    return bytes;
  };
  const time = (work: () => number) => {
    for (let i = 0; i < 3; i++) work();
    const samples: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const t = performance.now();
      work();
      samples.push(performance.now() - t);
    }
    return percentile(
      samples.sort((a, b) => a - b),
      0.5,
    );
  };
  serialised.push({ backend: name, features: rows.length, objects: time(asObjects), text: time(asText) });
}

const serialised: { backend: string; features: number; objects: number; text: number }[] = [];

/** Where `--reuse` keeps the loaded stations, and the mark a finished load leaves beside them. */
const kept = values.reuse
  ? (() => {
      const dir = '/tmp/specyard-fuel-bench';
      // The layout's version is part of the name: a changed generator never reuses another's stations.
      const region = values.region === 'europe' ? `europe_${EUROPE_LAYOUT}` : values.region;
      const name = `fuel-${region}-${STATIONS}`;
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      return {
        sqlite: path.join(dir, `${name}.db`),
        postgres: `specyard_fuel_bench_${region}_${STATIONS}`,
        loaded: (backend: string) => path.join(dir, `${name}.${backend}.loaded`),
      };
    })()
  : undefined;

/** The PostgreSQL database `--reuse` keeps, created when missing (its load's mark is then stale). */
async function keptPostgres(name: string) {
  const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      rmSync(kept?.loaded('postgres') ?? '', { force: true });
      await admin.query(`CREATE DATABASE ${name}`);
    }
  } finally {
    await admin.end();
  }
  return { url: `postgres://postgres@127.0.0.1:5432/${name}`, drop: async () => {} };
}

const rows: Row[] = [];
if (values.backend === 'sqlite' || values.backend === 'both') {
  const dir = kept ? undefined : mkdtempSync(path.join(os.tmpdir(), 'fuel-bench-'));
  if (kept && !existsSync(kept.sqlite)) rmSync(kept.loaded('sqlite'), { force: true });
  const store = openSqliteStore(kept?.sqlite ?? path.join(dir ?? '', 'fuel.db'));
  try {
    rows.push(...(await benchBackend('sqlite', store)));
  } finally {
    await store.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
if (values.backend === 'postgres' || values.backend === 'both') {
  const db = kept ? await keptPostgres(kept.postgres) : await createTestDatabase('specyard_fuel_bench');
  try {
    const store = await openPostgresStore(db.url);
    try {
      rows.push(...(await benchBackend('postgres', store, () => vacuumAnalyze(db.url), db.url)));
    } finally {
      await store.close();
    }
  } finally {
    await db.drop();
  }
}

const ms = (v: number) => v.toFixed(1);
console.log(
  `\n${STATIONS.toLocaleString('en')} stations, ${ITERATIONS} sequential requests per figure, ${CONCURRENCY} concurrent for req/s (${SECONDS} s)\n`,
);
console.log(
  '| backend | scenario | features | p50 ms | p95 ms | req/s | store p50 ms | HTTP / store | store / original query |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
const scenarioIndex = (scenario: string) =>
  rows.filter((r) => r.backend === rows[0]?.backend).findIndex((r) => r.scenario === scenario);
for (const r of rows) {
  const original = upstreamP50[scenarioIndex(r.scenario)];
  const ratio = original ? `${(r.storeP50 / original).toFixed(2)} (original ${ms(original)} ms)` : '–';
  console.log(
    `| ${r.backend} | ${r.scenario} | ${r.features} | ${ms(r.p50)} | ${ms(r.p95)} | ${r.rps.toFixed(1)} | ${ms(r.storeP50)} | ${(r.p50 / r.storeP50).toFixed(2)} | ${ratio} |`,
  );
}
console.log(
  "\n| backend | features | objects, then one JSON.stringify p50 ms | the store's Feature texts, pieces of about 32 KB p50 ms |",
);
console.log('|---|---:|---:|---:|');
for (const s of serialised)
  console.log(`| ${s.backend} | ${s.features} | ${ms(s.objects)} | ${ms(s.text)} |`);
printTiles(spainRows, zoomRows);
console.log(
  `\nmemory: ${(memory.afterLoad / 2 ** 20).toFixed(0)} MB resident after the last load, at most ${(memory.peak / 2 ** 20).toFixed(0)} MB`,
);
console.log('\n| backend | cluster table built: fuels | cells | seconds |');
console.log('|---|---:|---:|---:|');
for (const r of clusterRows) {
  console.log(`| ${r.backend} | ${r.rebuilt.length} | ${r.cells} | ${r.seconds.toFixed(1)} |`);
}
