import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../store/sqlite';
import type { FuelStore } from '../store/store';
import { parseScraperConfig } from './config';
import { austriaScraper } from './feeds/austria';
import { runScraper } from './pipeline';
import { commandLineKeys, createScraper, createSharedState } from './registry';
import { recordingLog } from './testing/context';
import { FEED_KEYS_ENV, feedEnv } from './testing/feed-routes';

const TIMEOUT = 'The operation was aborted due to timeout';

describe('a feed that never answers', () => {
  let server: Server;
  let url: string;
  let store: FuelStore;
  const sockets = new Set<Socket>();
  let answeredOnce = false;
  beforeAll(async () => {
    // Accepts every connection and request, and answers none.
    server = createServer((req, res) => {
      // One grid search gets an answer, so only the run's own limit can end the grid.
      if (req.url?.includes('answer-once') && !answeredOnce) {
        answeredOnce = true;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('[]');
      }
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    store = openSqliteStore(':memory:');
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
    await store.close();
  });

  it('ends every scraper run with the time-out error and changes nothing', async () => {
    const config = parseScraperConfig({
      ...feedEnv(url),
      ...FEED_KEYS_ENV,
      APP_OCM_TILE_DELAY_MS: '0',
      APP_ENABLED_COUNTRIES: 'ES,FR,PT,IT,AT,DE,GB,DK,AU',
    });
    const shared = createSharedState(config);
    const keys = commandLineKeys(config);
    const outcomes: Record<string, string[]> = {};
    await Promise.all(
      keys.map(async (key) => {
        // The charging-point keys pass one gate to their shared upstream, each waiting out the time-outs
        // of those before it (about forty): a short limit keeps the run near a second, also under load.
        const scraper = createScraper(key, config, shared, { timeoutMs: 25 });
        if (!scraper) throw new Error(`no scraper for ${key}`);
        const log = recordingLog();
        const summary = await runScraper(scraper, { store, log, sleep: async () => undefined });
        outcomes[key] = summary.errors;
        expect(log.errors.at(-1)).toBe(`[${scraper.source}] Fatal error: ${TIMEOUT}`);
      }),
    );
    for (const key of keys) expect(outcomes[key], key).toEqual([`Fatal: ${TIMEOUT}`]);
    expect((await store.stats()).totals).toEqual({ stations: 0, prices: 0 });
  });

  it('ends a grid feed that answers once and then hangs at the limit of its whole run', async () => {
    const scraper = austriaScraper(`${url}/answer-once`, { timeoutMs: 60_000, runLimitMs: 300 });
    const log = recordingLog();
    const summary = await runScraper(scraper, { store, log });
    expect(answeredOnce).toBe(true);
    expect(summary.errors).toEqual([`Fatal: ${TIMEOUT}`]);
  });
});
