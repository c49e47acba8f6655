/**
 * Prometheus metrics (prom-client), off by default. `METRICS_PORT` (or `<SERVICE>_METRICS_PORT` under
 * `npm start`) opens a separate listener answering `GET /metrics`; nothing listens when it is unset, and the
 * API ports never expose metrics. The three services share one registry, each series labelled with its
 * service, so `npm start` with one `METRICS_PORT` serves all three from one listener.
 *
 * - `specyard_http_requests_total{service,operation,method,status}` and
 *   `specyard_http_request_duration_seconds{service,operation,method}`: per documented operationId
 *   (`unmatched` for a path the document lacks), recorded by the common app kit.
 * - `specyard_fuel_scraper_runs_total{key,outcome}`, `specyard_fuel_scraper_errors_total{key}`,
 *   `specyard_fuel_scraper_duration_seconds{key}`: one per scheduled run of a scraper key.
 * - `specyard_subtitles_queue_items`, `specyard_subtitles_workers{state}`: read from the queue when scraped.
 * - `specyard_archive_websocket_connections`, `specyard_archive_websocket_events_total{type}`: the hook
 *   `archiveWebSocketMetrics` the WebSocket hub calls.
 */
import { createServer, type Server } from 'node:http';
import client from 'prom-client';
import { type Env, intVar } from './env';
import type { Service } from './services';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: 'specyard_' });

const httpRequests = new client.Counter({
  name: 'specyard_http_requests_total',
  help: 'Answered HTTP requests, by documented operationId and status',
  labelNames: ['service', 'operation', 'method', 'status'] as const,
  registers: [registry],
});

const httpDuration = new client.Histogram({
  name: 'specyard_http_request_duration_seconds',
  help: 'Time from request to answer, by documented operationId',
  labelNames: ['service', 'operation', 'method'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

/** Called once per answered request by the app kit's request logger. */
export function recordRequest(
  service: Service,
  operation: string,
  method: string,
  status: number,
  seconds: number,
): void {
  httpRequests.inc({ service, operation, method, status: String(status) });
  httpDuration.observe({ service, operation, method }, seconds);
}

const scraperRuns = new client.Counter({
  name: 'specyard_fuel_scraper_runs_total',
  help: 'Scheduled scraper runs per key; outcome ok, error, or skipped (another replica held the key)',
  labelNames: ['key', 'outcome'] as const,
  registers: [registry],
});
const scraperErrors = new client.Counter({
  name: 'specyard_fuel_scraper_errors_total',
  help: 'Errors reported by scraper runs per key',
  labelNames: ['key'] as const,
  registers: [registry],
});
const scraperDuration = new client.Histogram({
  name: 'specyard_fuel_scraper_duration_seconds',
  help: 'Duration of scraper runs per key',
  labelNames: ['key'] as const,
  buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800],
  registers: [registry],
});

export const scraperMetrics = {
  run(key: string, errors: number, seconds: number): void {
    scraperRuns.inc({ key, outcome: errors > 0 ? 'error' : 'ok' });
    if (errors > 0) scraperErrors.inc({ key }, errors);
    scraperDuration.observe({ key }, seconds);
  },
  skipped(key: string): void {
    scraperRuns.inc({ key, outcome: 'skipped' });
  },
};

export interface QueueGauges {
  /** Items waiting for a worker. */
  remaining: number;
  /** Each worker's phase (`idle` when free). */
  workers: { phase: string }[];
}

let queueSource: (() => QueueGauges) | undefined;
new client.Gauge({
  name: 'specyard_subtitles_queue_items',
  help: 'Transcription queue items waiting for a worker',
  registers: [registry],
  collect() {
    if (queueSource) this.set(queueSource().remaining);
  },
});
new client.Gauge({
  name: 'specyard_subtitles_workers',
  help: 'Transcription workers by state (idle or the phase of the item in progress)',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    if (!queueSource) return;
    this.reset();
    for (const worker of queueSource().workers) this.inc({ state: worker.phase });
  },
});

/** The subtitles queue registers how to read it; `undefined` forgets it (the server closing). */
export function watchQueue(source: (() => QueueGauges) | undefined): void {
  queueSource = source;
}

const wsConnections = new client.Gauge({
  name: 'specyard_archive_websocket_connections',
  help: 'Open WebSocket connections of the archive viewer',
  registers: [registry],
});
const wsEvents = new client.Counter({
  name: 'specyard_archive_websocket_events_total',
  help: 'Frames sent to archive WebSocket clients, by type',
  labelNames: ['type'] as const,
  registers: [registry],
});

/** The hook the archive WebSocket hub calls. */
export const archiveWebSocketMetrics = {
  opened: () => wsConnections.inc(),
  closed: () => wsConnections.dec(),
  sent: (type: string, count = 1) => wsEvents.inc({ type }, count),
};

/** `METRICS_PORT` of a service's (already scoped) environment; `undefined` when metrics are off. */
export function metricsPort(env: Env): number | undefined {
  if (env.METRICS_PORT === undefined || env.METRICS_PORT.trim() === '') return undefined;
  return intVar(env, 'METRICS_PORT', 0, { min: 0, max: 65535 });
}

interface Listener {
  server: Server;
  url: string;
  users: number;
}
const listeners = new Map<string, Promise<Listener>>();

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/**
 * Opens (or shares, when several services of one process name the same port) the metrics listener on
 * host:port. Port 0 picks a free one (tests). Closing the last user closes the socket.
 */
export async function serveMetrics(port: number, host = '127.0.0.1'): Promise<MetricsListener> {
  const id = `${host}:${port}`;
  let pending = port === 0 ? undefined : listeners.get(id);
  if (!pending) {
    pending = new Promise<Listener>((resolve, reject) => {
      const server = createServer((req, res) => {
        if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found\n');
          return;
        }
        registry.metrics().then(
          (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
          (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
        );
      });
      server.once('error', reject);
      server.listen(port, host, () => {
        const address = server.address();
        const bound = typeof address === 'object' && address ? address.port : port;
        resolve({
          server,
          url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`,
          users: 0,
        });
      });
    });
    if (port !== 0) listeners.set(id, pending);
    pending.catch(() => listeners.delete(id));
  }
  const listener = await pending;
  listener.users++;
  let closed = false;
  return {
    url: listener.url,
    close: async () => {
      if (closed) return;
      closed = true;
      listener.users--;
      if (listener.users > 0) return;
      listeners.delete(id);
      await new Promise<void>((done) => listener.server.close(() => done()));
    },
  };
}

/** Starts the listener when the environment asks for one; otherwise a no-op closer. */
export async function startMetrics(env: Env, host: string): Promise<MetricsListener | undefined> {
  const port = metricsPort(env);
  return port === undefined ? undefined : serveMetrics(port, host);
}
