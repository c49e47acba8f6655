import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../common/logger';
import { loadFuelConfig } from './config';
import { start, unusedCountryEntries } from './main';

/** The real scheduler, watched: which jobs it scheduled and whether its stop ran to the end. */
const scheduler = vi.hoisted(() => ({ started: [] as string[], stopped: false }));
vi.mock('./jobs/scheduler', async (importOriginal) => {
  const real = await importOriginal<typeof import('./jobs/scheduler')>();
  return {
    ...real,
    startScheduler: async (...args: Parameters<typeof real.startScheduler>) => {
      const running = await real.startScheduler(...args);
      scheduler.started = [...running.keys];
      return {
        ...running,
        stop: async () => {
          await running.stop();
          scheduler.stopped = true;
        },
      };
    },
  };
});

function statusOf(url: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode));
    });
    request.once('error', reject);
  });
}

describe('APP_ENABLED_COUNTRIES at start', () => {
  it('names the entries that enable nothing: no map settings and no feed', () => {
    const unused = (value: string) => unusedCountryEntries(loadFuelConfig({ APP_ENABLED_COUNTRIES: value }));
    expect(unused('ES,ZZ')).toEqual(['ZZ']);
    // US has no map entry but its chargers' feed; AU_NSW is a feed key.
    expect(unused('US,AU_NSW,PT')).toEqual([]);
    expect(unused('ZZ,QQ')).toEqual(['ZZ', 'QQ']);
  });
});

describe('the fuel server process', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'specyard-fuel-main-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the scraper scheduler beside the server and stops it on close', async () => {
    let logged = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    const running = await start(
      {
        DATA_DIR: dir,
        PORT: '0',
        APP_ENABLED_COUNTRIES: 'ES,PT',
        APP_EV_ENABLED: '0',
        APP_SCRAPE_INTERVAL_ES: '6',
        APP_SCRAPE_INTERVAL_PT: '0',
      },
      { logger: createLogger('fuel', 'info', sink) },
    );
    let closed = false;
    try {
      // Without keep-alive, so the request leaves no socket timer behind.
      expect(await statusOf(`${running.url}/api/config`)).toBe(200);
      expect(logged).toContain('[scraper] ES: scraping every 6h');
      expect(logged).toContain('[scraper] PT: automatic scraping disabled');
      expect(scheduler.started).toEqual(['ES']);
      expect(scheduler.stopped).toBe(false);
      await running.close();
      closed = true;
      // Closed: the scheduler was stopped (its stop finished before close resolved) and the port refuses.
      expect(scheduler.stopped).toBe(true);
      await expect(statusOf(`${running.url}/api/config`)).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      if (!closed) await running.close();
    }
  });
});
