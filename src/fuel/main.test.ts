import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../common/logger';
import { start } from './main';

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
    try {
      const config = await fetch(`${running.url}/api/config`);
      expect(config.status).toBe(200);
      expect(logged).toContain('[scraper] ES: scraping every 6h');
      expect(logged).toContain('[scraper] PT: automatic scraping disabled');
    } finally {
      await running.close();
    }
  });
});
