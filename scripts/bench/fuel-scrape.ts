/**
 * `npm run bench -- fuel scrape [--stations 200000] [--feed 100000] [--seconds 30] [--box-rates 1]`: the fuel map's routes
 * before, during and after a scrape. The real server (scripts/bench/load-server.ts, SQLite) holds
 * `--stations` synthetic stations; a `--feed`-station Spanish feed is served on 127.0.0.1 and scraped on
 * the server's scrape thread, as the scheduler does. Open-loop clients send each route at a fixed rate
 * whatever the server's state (a request's latency counts from when it was due, so a stalled event loop
 * shows in full): `/api/config` 50/s, a city box 10/s, the country box 1/s (both times `--box-rates`), a tile of the country
 * (zoom 5) and one of the city (zoom 11) 10/s each. Phases: `--seconds` idle, the
 * scrape, then `--seconds` after it. Target: each route's p99 during and after ≤ 2× its idle p99.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startSpanishFeed } from './spanish-feed';

const { values } = parseArgs({
  options: {
    stations: { type: 'string', default: '200000' },
    feed: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '30' },
    // The box routes' rates times this: at 1,000,000 stations a city box is a 20,000-feature answer, and
    // the default rates ask more than two cores give even idle.
    'box-rates': { type: 'string', default: '1' },
  },
  allowPositionals: true,
});
const SECONDS = Number(values.seconds);

const BOX_RATES = Number(values['box-rates']);
const ROUTES = [
  { name: '/api/config', path: '/api/config', rate: 50 },
  {
    name: 'city box (Madrid, B7)',
    path: '/api/stations?bbox=-3.80,40.35,-3.60,40.50&fuel=B7',
    rate: 10 * BOX_RATES,
  },
  { name: 'country box (Spain, B7)', path: '/api/stations?bbox=-9.4,36.0,3.4,43.8&fuel=B7', rate: BOX_RATES },
  { name: 'tile of Spain (zoom 5, B7)', path: '/api/tiles/5/15/12?fuel=B7', rate: 10 },
  { name: 'tile of Madrid (zoom 11, B7)', path: '/api/tiles/11/1002/772?fuel=B7', rate: 10 },
];

interface Sample {
  route: string;
  due: number;
  ms: number;
  ok: boolean;
}

/** Sends every route at its rate until `until()` says stop; each request leaves when due, answered or not. */
async function openLoop(base: string, until: () => boolean): Promise<Sample[]> {
  const samples: Sample[] = [];
  const pending: Promise<void>[] = [];
  const started = performance.now();
  const sent = ROUTES.map(() => 0);
  while (!until()) {
    const now = performance.now();
    ROUTES.forEach((route, i) => {
      while ((sent[i] ?? 0) < ((now - started) / 1000) * route.rate) {
        const due = started + ((sent[i] ?? 0) * 1000) / route.rate;
        sent[i] = (sent[i] ?? 0) + 1;
        pending.push(
          fetch(`${base}${route.path}`)
            .then(async (res) => {
              await res.arrayBuffer();
              samples.push({ route: route.name, due, ms: performance.now() - due, ok: res.status === 200 });
            })
            .catch(() => {
              samples.push({ route: route.name, due, ms: performance.now() - due, ok: false });
            }),
        );
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await Promise.all(pending);
  return samples;
}

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

const child = fork(path.join(import.meta.dirname, 'load-server.ts'), [], {
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  env: { ...process.env, BENCH_FUEL_STATIONS: values.stations },
});
const next = (key: string) =>
  new Promise<Record<string, unknown>>((resolve) => {
    const listen = (m: Record<string, unknown>) => {
      if (!(key in m)) return;
      child.off('message', listen);
      resolve(m);
    };
    child.on('message', listen);
  });

try {
  console.error(`loading ${values.stations} stations into the fuel store…`);
  const ready = await next('ready');
  const base = (ready.ready as Record<string, string>).fuel as string;
  const feed = await startSpanishFeed(Number(values.feed));
  // Warm: every route answered once (the positions index built for the stored stations).
  for (const route of ROUTES) await (await fetch(`${base}${route.path}`)).arrayBuffer();
  const phase = async (seconds: number) => {
    const ends = performance.now() + seconds * 1000;
    return openLoop(base, () => performance.now() >= ends);
  };
  const idle = await phase(SECONDS);
  child.send({ scrape: feed.url });
  let scraped: Record<string, unknown> | undefined;
  void next('scraped').then((m) => {
    scraped = m;
  });
  const during = await openLoop(base, () => scraped !== undefined);
  const after = await phase(SECONDS);
  feed.close();
  const summary = scraped?.scraped as { ms: number; stations: number; errors: unknown[] } | undefined;
  // A failed scrape measures nothing: say so instead of printing its table.
  if (!summary || summary.errors.length > 0) {
    throw new Error(`the scrape did not take the feed: ${JSON.stringify(summary)}`);
  }
  console.log(
    `\nfuel map around a scrape: ${values.stations} stored stations, a ${values.feed}-station feed scraped in ${(summary.ms / 1000).toFixed(1)} s; ` +
      `open-loop clients; p50 / p99 ms; target: p99 during and after <= 2x idle`,
  );
  console.log('| route | idle | during | after | during / idle p99 | after / idle p99 | failed |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const route of ROUTES) {
    const of = (samples: Sample[]) => samples.filter((s) => s.route === route.name);
    const [a, b, c] = [of(idle), of(during), of(after)].map((xs) => xs.map((s) => s.ms));
    const p99 = [a, b, c].map((xs) => quantile(xs ?? [], 0.99));
    const cell = (xs: number[] | undefined, i: number) =>
      `${quantile(xs ?? [], 0.5).toFixed(1)} / ${(p99[i] ?? 0).toFixed(1)}`;
    const failed = [...of(idle), ...of(during), ...of(after)].filter((s) => !s.ok).length;
    console.log(
      `| ${route.name} | ${cell(a, 0)} | ${cell(b, 1)} | ${cell(c, 2)} | ${((p99[1] ?? 0) / (p99[0] ?? 1)).toFixed(2)} | ${((p99[2] ?? 0) / (p99[0] ?? 1)).toFixed(2)} | ${failed} |`,
    );
  }
} finally {
  child.send({ stop: true });
  await new Promise((resolve) => child.once('exit', resolve));
}
