/**
 * `npm run bench -- <service> load [--duration 30] [--connections 50] [--soak 600] [--soak-rate 0]
 * [--scrape 100000]`:
 * autocannon against the real server of one service, started with the first-run demo data in a child
 * process (scripts/bench/load-server.ts; SQLite, validation off). For each main route: `--duration`
 * seconds at `--connections` connections, reporting requests/s, p50, p99, errors and non-2xx answers.
 * Then a soak: every route in turn for `--soak` seconds (as fast as they go, or at `--soak-rate`
 * requests/s) with the server's resident memory (VmRSS) sampled every 10 s; growth is measured from the
 * first sample after a warm-up of a quarter of the soak. Fuel also measures `/api/config` at a steady
 * 50 requests/s while a `--scrape`-station synthetic Spanish feed is scraped on the server's scrape
 * thread, then at full load during a second scrape. Figures go to scripts/bench/README.md.
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { FIXTURE } from '../../src/archive/demo/dataset';
import type { DemoCredentials } from '../../src/first-run';
import { startSpanishFeed } from './spanish-feed';

type Service = 'fuel' | 'archive' | 'subtitles';
interface Route {
  name: string;
  path: string;
  headers?: Record<string, string>;
}

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '30' },
    connections: { type: 'string', default: '50' },
    soak: { type: 'string', default: '600' },
    // Requests/s of the soak over 10 connections; 0 (the default) is every connection as fast as it goes.
    'soak-rate': { type: 'string', default: '0' },
    scrape: { type: 'string', default: '100000' },
  },
  allowPositionals: true,
});
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const SOAK = Number(values.soak);
const SOAK_RATE = Number(values['soak-rate']);
const SCRAPE = Number(values.scrape);

async function routesOf(
  service: Service,
  urls: Record<Service, string>,
  creds: DemoCredentials,
): Promise<Route[]> {
  if (service === 'fuel') {
    return [
      { name: 'GET /api/config', path: '/api/config' },
      { name: 'GET /api/stations (Madrid, B7)', path: '/api/stations?bbox=-3.80,40.35,-3.60,40.50&fuel=B7' },
      {
        name: 'GET /api/stations/nearest (Lisbon, 5 km)',
        path: '/api/stations/nearest?lat=38.7223&lon=-9.1393&radius_km=5&fuel=E5',
      },
    ];
  }
  if (service === 'subtitles') {
    const headers = { Authorization: `MediaServer Token="${creds.subtitles.apiKey}"` };
    return [
      { name: 'GET /System/Info/Public', path: '/System/Info/Public' },
      { name: 'GET /Plugins/Subtitles/Queue (API key)', path: '/Plugins/Subtitles/Queue', headers },
    ];
  }
  const login = await fetch(`${urls.archive}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(creds.archive),
  });
  const cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
  const headers = { cookie };
  const chat = FIXTURE.releaseCrew.ref;
  return [
    { name: 'GET /api/chats', path: '/api/chats', headers },
    { name: 'GET /api/chats/{ref}/messages', path: `/api/chats/${chat}/messages`, headers },
    { name: 'GET /api/search/messages?q=release', path: '/api/search/messages?q=release', headers },
    { name: 'GET /api/stats', path: '/api/stats', headers },
  ];
}

interface Result {
  route: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  status5xx: number;
}

/** Load on one route: `CONNECTIONS` connections as fast as they go, or a steady rate when given. */
async function hammer(
  base: string,
  route: Route,
  seconds: number,
  steady?: { connections: number; rate: number },
): Promise<Result> {
  const result = await autocannon({
    url: `${base}${route.path}`,
    connections: steady?.connections ?? CONNECTIONS,
    ...(steady ? { overallRate: steady.rate } : {}),
    duration: seconds,
    headers: route.headers ?? {},
  });
  return {
    route: route.name,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    status5xx: result['5xx'],
  };
}

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return line ? Math.round(Number(line[1]) / 1024) : Number.NaN;
};

const row = (r: Result) =>
  `| ${r.route} | ${r.rps} | ${r.p50} ms | ${r.p99} ms | ${r.errors} | ${r.non2xx} | ${r.status5xx} |`;

export async function runLoad(service: Service): Promise<void> {
  const child = fork(path.join(import.meta.dirname, 'load-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const messages: Record<string, unknown>[] = [];
  const waiters: [string, (m: Record<string, unknown>) => void][] = [];
  child.on('message', (m: Record<string, unknown>) => {
    const waiter = waiters.find((w) => w[0] in m);
    if (!waiter) return void messages.push(m);
    waiters.splice(waiters.indexOf(waiter), 1);
    waiter[1](m);
  });
  const next = (key: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const found = messages.find((m) => key in m);
      if (found) {
        messages.splice(messages.indexOf(found), 1);
        resolve(found);
      } else waiters.push([key, resolve]);
    });
  try {
    const ready = await next('ready');
    const urls = ready.ready as Record<Service, string>;
    const routes = await routesOf(service, urls, ready.credentials as DemoCredentials);
    const pid = child.pid ?? 0;
    console.log(`${service}: ${DURATION} s per route at ${CONNECTIONS} connections`);
    console.log(
      '| route | req/s | p50 | p99 | errors | non-2xx | 5xx |\n|---|---:|---:|---:|---:|---:|---:|',
    );
    for (const route of routes) console.log(row(await hammer(urls[service], route, DURATION)));

    if (service === 'fuel' && SCRAPE > 0) {
      const config = routes[0] as Route;
      // The feed is built and served here, before the windows start, so none of its work is the server's.
      const feed = await startSpanishFeed(SCRAPE);
      child.send({ scrape: feed.url });
      // Responsiveness: a steady 50 requests/s on 2 connections, in 5 s windows, while the scrape runs;
      // then, after it, the same windows with every connection as fast as it goes (saturation).
      const during: Result[] = [];
      let scraped: Record<string, unknown> | undefined;
      void next('scraped').then((m) => {
        scraped = m;
      });
      while (!scraped) during.push(await hammer(urls.fuel, config, 5, { connections: 2, rate: 50 }));
      const idle = await hammer(urls.fuel, config, 5, { connections: 2, rate: 50 });
      // A window with no answer at all means the server's event loop was held for its whole 5 s.
      const windows = during.map((r) =>
        r.requests === 0 ? 'no answer' : `${r.requests} req p50 ${r.p50} p99 ${r.p99} ms`,
      );
      const worst = Math.max(...during.map((r) => r.p99));
      console.log(
        `\n/api/config at a steady 50 req/s during a ${SCRAPE}-station scrape on the scrape thread ` +
          `(${JSON.stringify(scraped.scraped)}), 5 s windows: ${windows.join('; ')}; worst p99 ${worst} ms; ` +
          `errors ${during.reduce((s, r) => s + r.errors, 0)}, 5xx ${during.reduce((s, r) => s + r.status5xx, 0)}; ` +
          `same rate with no scrape: p50 ${idle.p50} p99 ${idle.p99} ms`,
      );
      // The same scrape again (every price changes nothing now), under saturation.
      child.send({ scrape: feed.url });
      let again: Record<string, unknown> | undefined;
      void next('scraped').then((m) => {
        again = m;
      });
      const saturated: Result[] = [];
      while (!again) saturated.push(await hammer(urls.fuel, config, 5));
      console.log(
        `/api/config at ${CONNECTIONS} connections during a second scrape (${JSON.stringify(again.scraped)}): ` +
          saturated.map((r) => `${r.rps} req/s p50 ${r.p50} p99 ${r.p99} ms`).join('; '),
      );
      feed.close();
    }

    if (SOAK > 0) {
      const samples: number[] = [rssMb(pid)];
      const timer = setInterval(() => samples.push(rssMb(pid)), 10_000);
      const ends = Date.now() + SOAK * 1000;
      let errors = 0;
      let fives = 0;
      let requests = 0;
      while (Date.now() < ends) {
        for (const route of routes) {
          const seconds = Math.min(10, Math.max(1, (ends - Date.now()) / 1000));
          const steady = SOAK_RATE > 0 ? { connections: 10, rate: SOAK_RATE } : undefined;
          const r = await hammer(urls[service], route, seconds, steady);
          errors += r.errors;
          fives += r.status5xx;
          requests += r.requests;
        }
      }
      clearInterval(timer);
      samples.push(rssMb(pid));
      const warm = samples[Math.max(1, Math.floor(samples.length / 4))] ?? samples[0] ?? 0;
      const last = samples.at(-1) ?? 0;
      console.log(
        `\nsoak ${SOAK} s${SOAK_RATE > 0 ? ` at ${SOAK_RATE} req/s` : ''}: ${requests} requests, errors ${errors}, 5xx ${fives}; RSS MB every 10 s: ${samples.join(' ')}; ` +
          `after warm-up ${warm} → ${last} MB (${(((last - warm) / warm) * 100).toFixed(1)} %)`,
      );
    }
  } finally {
    child.send({ stop: true });
    await new Promise((resolve) => child.once('exit', resolve));
  }
}
