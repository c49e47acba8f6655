import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { start } from '../fuel/main';
import { archiveWebSocketMetrics, registry, scraperMetrics, serveMetrics, watchQueue } from './metrics';

const dir = mkdtempSync(path.join(os.tmpdir(), 'specyard-metrics-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const listeningServers = () =>
  process.getActiveResourcesInfo().filter((resource) => resource === 'TCPServerWrap').length;

async function scrape(url: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

describe('metrics', () => {
  it('count each request under its operationId on a separate listener (METRICS_PORT)', async () => {
    const fuel = await start(
      { DATA_DIR: dir, PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'silent' },
      { scrapers: false },
    );
    try {
      expect(fuel.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(fuel.metricsUrl).not.toContain(new URL(fuel.url).port);
      for (let i = 0; i < 3; i++) expect((await fetch(`${fuel.url}/api/config`)).status).toBe(200);
      expect((await fetch(`${fuel.url}/api/stations?bbox=nonsense`)).status).toBe(400);
      expect((await fetch(`${fuel.url}/no/such/route`)).status).toBe(404);
      // The API port itself never serves metrics.
      expect((await fetch(`${fuel.url}/metrics`)).status).toBe(404);

      // Two 404s: the unknown route and /metrics on the API port.
      const text = await scrape(fuel.metricsUrl ?? '');
      expect(text).toContain(
        'specyard_http_requests_total{service="fuel",operation="getConfig",method="GET",status="200"} 3',
      );
      expect(text).toMatch(
        /specyard_http_requests_total\{service="fuel",operation="listStations",method="GET",status="400"\} 1/,
      );
      expect(text).toMatch(
        /specyard_http_requests_total\{service="fuel",operation="unmatched",method="GET",status="404"\} 2/,
      );
      expect(text).toMatch(
        /specyard_http_request_duration_seconds_count\{service="fuel",operation="getConfig",method="GET"\} 3/,
      );
    } finally {
      await fuel.close();
    }
  });

  it('open no listener when METRICS_PORT is unset', async () => {
    const before = listeningServers();
    const fuel = await start({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent' }, { scrapers: false });
    try {
      expect(fuel.metricsUrl).toBeUndefined();
      // The API listener only.
      expect(listeningServers()).toBe(before + 1);
    } finally {
      await fuel.close();
    }
  });

  it('carry scraper runs per key, the subtitles queue and the archive WebSocket hooks', async () => {
    scraperMetrics.run('ES', 0, 1.5);
    scraperMetrics.run('ES', 2, 0.5);
    scraperMetrics.skipped('ES');
    watchQueue(() => ({
      remaining: 4,
      workers: [{ phase: 'transcribing' }, { phase: 'idle' }, { phase: 'idle' }],
    }));
    archiveWebSocketMetrics.opened();
    archiveWebSocketMetrics.opened();
    archiveWebSocketMetrics.closed();
    archiveWebSocketMetrics.sent('new_message', 3);
    const listener = await serveMetrics(0);
    try {
      const text = await scrape(listener.url);
      expect(text).toContain('specyard_fuel_scraper_runs_total{key="ES",outcome="ok"} 1');
      expect(text).toContain('specyard_fuel_scraper_runs_total{key="ES",outcome="error"} 1');
      expect(text).toContain('specyard_fuel_scraper_runs_total{key="ES",outcome="skipped"} 1');
      expect(text).toContain('specyard_fuel_scraper_errors_total{key="ES"} 2');
      expect(text).toContain('specyard_fuel_scraper_duration_seconds_sum{key="ES"} 2');
      expect(text).toContain('specyard_subtitles_queue_items 4');
      expect(text).toContain('specyard_subtitles_workers{state="idle"} 2');
      expect(text).toContain('specyard_subtitles_workers{state="transcribing"} 1');
      expect(text).toContain('specyard_archive_websocket_connections 1');
      expect(text).toContain('specyard_archive_websocket_events_total{type="new_message"} 3');
      expect((await fetch(listener.url.replace('/metrics', '/other'))).status).toBe(404);
    } finally {
      watchQueue(undefined);
      await listener.close();
    }
    expect(await registry.getSingleMetricAsString('specyard_subtitles_queue_items')).toContain('queue');
  });
});
