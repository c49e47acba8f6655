/**
 * The pages' budgets, measured in headless Chromium (a benchmark, not a test): first meaningful render of
 * each page, the archive viewer's JavaScript size gzipped, and the fuel map with 20,000 stations in view
 * (time until they are listed and drawn, frame times while the map pans). Run through
 * `npm run bench -- <archive|fuel|subtitles> web`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { MASTER, startTestViewer } from '../../src/archive/http/test-viewer';
import { openSqliteStore } from '../../src/fuel/store/sqlite';
import type { PriceInput, StationInput } from '../../src/fuel/store/store';
import { BLANK_STYLE, startTestFuel } from '../../src/fuel/testing/server';
import { makeFixture, startServer } from '../../src/subtitles/test-support';
import { launchBrowser, openPage } from '../../web/testing/browser';
import { buildStale } from './build';
import { distOf, type WebService } from './build-config';

const RUNS = 7;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
};

/** Milliseconds from the start of navigation until `selector` is on screen (checked every frame). */
async function renderTime(
  browser: Browser,
  url: string,
  selector: string,
  prepare?: (page: Page) => Promise<void>,
) {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const { page, context } = await openPage(browser);
    if (prepare) await prepare(page);
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction((s) => document.querySelector(s) !== null, selector, {
      polling: 'raf',
      timeout: 30_000,
    });
    times.push(await page.evaluate(() => performance.now()));
    await context.close();
  }
  return times;
}

function gzipSizes(service: WebService) {
  const dir = path.join(distOf(service), 'static');
  let raw = 0;
  let gzip = 0;
  for (const name of readdirSync(dir).filter((n) => /\.(m?js)$/.test(n))) {
    const bytes = readFileSync(path.join(dir, name));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { raw, gzip };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function archive(browser: Browser) {
  const viewer = await startTestViewer();
  try {
    const login = await renderTime(browser, `${viewer.url}/`, '#username');
    const list = await renderTime(browser, `${viewer.url}/`, '.chat-row', async (page) => {
      const res = await page.request.post(`${viewer.url}/api/login`, { data: MASTER });
      if (!res.ok()) throw new Error(`login answered ${res.status()}`);
    });
    const size = gzipSizes('archive');
    console.log(
      `archive: login form p50 ${ms(median(login))}, chat list (signed in) p50 ${ms(median(list))}`,
    );
    console.log(`archive: JavaScript ${kb(size.raw)}, gzip ${kb(size.gzip)} (budget 150 KB)`);
  } finally {
    await viewer.close();
  }
}

function syntheticStations(count: number): { stations: StationInput[]; prices: PriceInput[] } {
  const stations: StationInput[] = [];
  const prices: PriceInput[] = [];
  let seed = 42;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let i = 0; i < count; i++) {
    const externalId = `bench-${i}`;
    stations.push({
      externalId,
      country: 'ES',
      type: 'fuel',
      name: `STATION ${i}`,
      brand: null,
      address: `CALLE ${i}`,
      city: 'BENCH',
      lon: -8 + next() * 9,
      lat: 37 + next() * 6,
      source: 'bench-es',
    });
    prices.push({ externalId, country: 'ES', fuel: 'B7', price: 1.3 + next() * 0.4, currency: 'EUR' });
  }
  return { stations, prices };
}

async function fuel(browser: Browser) {
  const env = { APP_MAP_STYLE_URL: BLANK_STYLE };
  const demo = await startTestFuel({ env });
  let first: number[];
  try {
    first = await renderTime(browser, `${demo.url}/`, '[data-testid="stations-in-view"] button');
  } finally {
    await demo.close();
  }
  const store = openSqliteStore(':memory:');
  const { stations, prices } = syntheticStations(20_000);
  await store.upsertStations(stations);
  await store.replacePrices('bench-es', 'ES', prices);
  const big = await startTestFuel({ store, seed: false, env });
  try {
    const { page, context } = await openPage(browser);
    await page.goto(`${big.url}/`, { waitUntil: 'commit' });
    await page.waitForFunction(() => /\(20000 stations\)/.test(document.body.textContent ?? ''), null, {
      polling: 'raf',
      timeout: 120_000,
    });
    const listed = await page.evaluate(() => performance.now());
    // Drawn: the map is up, has fetched the stations of its own view, and two frames went by.
    await page.locator('.maplibregl-canvas').waitFor();
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const drawn = await page.evaluate(() => performance.now());
    // Pan with the keyboard for two seconds and record every frame.
    await page.locator('.maplibregl-canvas').focus();
    // A string, not a function: the bundler's name helpers do not exist in the page.
    const framesPromise = page.evaluate(`new Promise((resolve) => {
      const deltas = [];
      let last = performance.now();
      const end = last + 2000;
      requestAnimationFrame(function tick(now) {
        deltas.push(now - last);
        last = now;
        if (now < end) requestAnimationFrame(tick);
        else resolve(deltas);
      });
    })`) as Promise<number[]>;
    const keys = ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp'];
    for (let i = 0; i < 16; i++) await page.keyboard.press(keys[i % 4] ?? 'ArrowRight');
    const frames = await framesPromise;
    await context.close();
    console.log(`fuel: first station listed p50 ${ms(median(first))} (demo data)`);
    console.log(`fuel: 20,000 stations listed after ${ms(listed)}, drawn after ${ms(drawn)}`);
    console.log(
      `fuel: panning with 20,000 stations: ${frames.length} frames in 2 s, frame time p50 ${ms(median(frames))}, p95 ${ms(percentile(frames, 95))}`,
    );
    const size = gzipSizes('fuel');
    console.log(`fuel: JavaScript ${kb(size.raw)}, gzip ${kb(size.gzip)} (MapLibre and its worker)`);
  } finally {
    await big.close();
  }
}

async function subtitles(browser: Browser) {
  const fixture = makeFixture();
  const server = await startServer(fixture.env);
  try {
    const times = await renderTime(
      browser,
      `${server.url}/web/configurationpage?name=subtitles.html`,
      '#api-key',
    );
    const size = gzipSizes('subtitles');
    console.log(`subtitles: sign-in form p50 ${ms(median(times))}; JavaScript gzip ${kb(size.gzip)}`);
  } finally {
    await server.close();
    fixture.remove();
  }
}

export async function benchPage(service: WebService): Promise<void> {
  await buildStale([service]);
  const browser = await launchBrowser();
  try {
    if (service === 'archive') await archive(browser);
    else if (service === 'fuel') await fuel(browser);
    else await subtitles(browser);
  } finally {
    await browser.close();
  }
}
