/**
 * The fuel map in Chromium against the real server on the demo data, with the fake routing engine and
 * geocoder: stations in view with popups and share links, place search, EV mode, a planned route with its
 * alternatives, the stations along it and detour minutes streamed with anchors either side of each
 * station, and clear messages when routing or place search give nothing. Never touches the network.
 */
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { greatCircleKm } from '../../src/fuel/geo/sphere';
import type { LonLat } from '../../src/fuel/store/store';
import { BLANK_STYLE, startTestFuel, type TestFuel } from '../../src/fuel/testing/server';
import {
  launchBrowser,
  nextAnswerTo,
  openPage,
  openUnroutedPage,
  policyViolations,
  seriousViolations,
} from '../testing/browser';

let fuel: TestFuel;
let browser: Browser;
const offsite: string[] = [];

beforeAll(async () => {
  // A blank style served by the fuel server itself: the tests never reach a tile server.
  // France is enabled but has no data loaded (the demo data covers Spain and Portugal).
  fuel = await startTestFuel({
    env: { APP_MAP_STYLE_URL: BLANK_STYLE, APP_ENABLED_COUNTRIES: 'ES,PT,FR,US' },
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await fuel?.close();
});

const MADRID = '40.42, -3.70';
const TOLEDO = '39.86, -4.02';

describe('the fuel map', () => {
  it('is served at / with the style address in the page and a same-origin policy', async () => {
    const res = await fetch(`${fuel.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await res.text()).toContain('<meta name="map-style" content="./static/blank-style.json">');
  });

  it('answers the browser’s icon request, so no resource fails to load', async () => {
    const { page, errors, context } = await openUnroutedPage(browser);
    const icon = nextAnswerTo('/favicon.ico');
    await page.goto(`${fuel.url}/`);
    expect(await icon).toEqual({ status: 200, type: 'image/x-icon' });
    expect(errors.filter((line) => /Failed to load resource/.test(line))).toEqual([]);
    await context.close();
  });

  it('says when the box holds more stations than the answer (X-Result-Truncated)', async () => {
    const { page, errors, context } = await openPage(browser, { offsite });
    // The server marks a capped answer with the header (20,000 stations); here every answer is marked.
    await page.route('**/api/stations?*', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'x-result-truncated': 'true' } });
    });
    await page.goto(`${fuel.url}/`);
    const list = page.getByTestId('stations-in-view').getByRole('button');
    await list.first().waitFor();
    const notice = page.locator('.notice.warning', {
      hasText: 'More stations are in view than the list holds',
    });
    await notice.waitFor();
    // The count and the notice read from one render (the map may still be settling, each move a new answer).
    const { title, text } = await page
      .locator('section[aria-labelledby="inview-title"]')
      .evaluate((section) => ({
        title: section.querySelector('#inview-title')?.textContent ?? '',
        text: section.querySelector('.notice.warning')?.textContent ?? '',
      }));
    const shown = /\((\d+) stations\)/.exec(title)?.[1];
    expect(shown).toBeDefined();
    expect(text).toContain(`(${shown})`);
    await page.screenshot({ path: path.join(os.tmpdir(), 'fuel-truncated.png') });
    expect(policyViolations(errors)).toEqual([]);
    await context.close();
  });

  it('draws every station from the vector tiles: clusters over Europe at zoom 3, each station its own point at zoom 15 that opens its card', async () => {
    const all = (await (await fetch(`${fuel.url}/api/stations?bbox=-180,-85,180,85&fuel=B7`)).json()) as {
      features: {
        properties: { country: string; externalId: string; name: string };
        geometry: { coordinates: number[] };
      }[];
    };
    expect(all.features.length).toBeGreaterThan(10);
    const { page, errors, context } = await openPage(browser, { offsite });
    const tiles: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/tiles/')) tiles.push(new URL(request.url()).pathname);
    });
    await page.goto(`${fuel.url}/`);
    const map = page.locator('section.map');
    const state = async () =>
      map.evaluate((el) => ({
        zoom: Number((el as HTMLElement).dataset.zoom),
        clusters: Number((el as HTMLElement).dataset.drawnClusters),
        stations: Number((el as HTMLElement).dataset.drawnStations),
        largest: (el as HTMLElement).dataset.largestCluster,
      }));
    await expect.poll(async () => (await state()).stations, { timeout: 15_000 }).toBeGreaterThan(0);
    while ((await state()).zoom > 3.05) {
      const before = (await state()).zoom;
      await page.locator('.maplibregl-ctrl-zoom-out').click();
      await expect.poll(async () => (await state()).zoom, { timeout: 10_000 }).toBeLessThan(before - 0.5);
    }
    // The whole of Iberia in view: every diesel station drawn, in clusters, none missing, no "zoom in".
    await expect.poll(async () => (await state()).stations, { timeout: 15_000 }).toBe(all.features.length);
    const zoom3 = await state();
    expect(zoom3.zoom).toBeCloseTo(3, 0);
    expect(zoom3.clusters).toBeGreaterThan(0);
    expect(zoom3.clusters).toBeLessThan(all.features.length);
    expect(tiles.some((t) => t.startsWith('/api/tiles/3/'))).toBe(true);
    expect(await page.getByText(/zoom in/i).count()).toBe(0);
    await page.screenshot({ path: path.join(os.tmpdir(), 'fuel-zoom3.png') });

    // A click on a cluster opens towards its stations.
    const [x, y] = String(zoom3.largest).split(',').map(Number);
    await map.locator('canvas').click({ position: { x: x ?? 0, y: y ?? 0 } });
    await expect.poll(async () => (await state()).zoom, { timeout: 10_000 }).toBeGreaterThan(4.5);

    // A station's share link opens at street zoom; one step closer every station is its own point.
    await page.getByTestId('stations-in-view').getByRole('button').first().click();
    const link = await page.getByLabel('Share link').inputValue();
    const other = await openPage(browser, { offsite });
    await other.page.goto(link);
    await other.page.locator('.selected').getByTestId('station-card').waitFor();
    // Its popup too, whether its stations or the map arrived first.
    await other.page.locator('.maplibregl-popup').getByTestId('station-card').waitFor();
    await other.page.locator('.maplibregl-ctrl-zoom-in').click();
    const street = other.page.locator('section.map');
    await expect
      .poll(async () => street.evaluate((el) => Number((el as HTMLElement).dataset.zoom)), {
        timeout: 10_000,
      })
      .toBeGreaterThan(14.5);
    await expect
      .poll(async () => street.evaluate((el) => Number((el as HTMLElement).dataset.drawnStations)), {
        timeout: 10_000,
      })
      .toBeGreaterThan(0);
    expect(await street.evaluate((el) => Number((el as HTMLElement).dataset.drawnClusters))).toBe(0);
    await other.page.screenshot({ path: path.join(os.tmpdir(), 'fuel-zoom15.png') });

    // A station point opens its card from the tile's properties, also when the list does not hold it
    // (here every list answer from now on is empty, as a capped list leaves most of a dense city out).
    await other.page.route('**/api/stations?*', (route) =>
      route.fulfill({ json: { type: 'FeatureCollection', features: [] } }),
    );
    await other.page.locator('.maplibregl-popup-close-button').click();
    await other.page.locator('.maplibregl-ctrl-zoom-in').click();
    const point = async () =>
      street.evaluate((el) => ({
        zoom: Number((el as HTMLElement).dataset.zoom),
        at: (el as HTMLElement).dataset.aStation,
        key: (el as HTMLElement).dataset.aStationKey,
      }));
    await expect.poll(async () => (await point()).zoom, { timeout: 10_000 }).toBeGreaterThan(15.5);
    await expect.poll(async () => (await point()).at, { timeout: 10_000 }).toBeDefined();
    await other.page
      .getByTestId('stations-in-view')
      .getByRole('button')
      .first()
      .waitFor({ state: 'detached' });
    const { at, key } = await point();
    const clicked = all.features.find((f) => `${f.properties.country}/${f.properties.externalId}` === key);
    expect(clicked).toBeDefined();
    const [px, py] = String(at).split(',').map(Number);
    await street.locator('canvas').click({ position: { x: px ?? 0, y: py ?? 0 } });
    const popup = other.page.locator('.maplibregl-popup').getByTestId('station-card');
    await expect
      .poll(async () => popup.locator('h3').textContent(), { timeout: 10_000 })
      .toBe(clicked?.properties.name);
    await expect(popup.textContent()).resolves.toMatch(/B7 \(EUR\)stored/);
    await other.page.screenshot({ path: path.join(os.tmpdir(), 'fuel-street-card.png') });
    await other.context.close();

    expect(policyViolations(errors)).toEqual([]);
    expect(offsite).toEqual([]);
    await context.close();
  });

  it('draws the fuel chosen while the map was still loading', async () => {
    const { page, errors, context } = await openPage(browser, { offsite });
    // MapLibre's part of the page held back until the fuel has changed.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/static/station-map-*.js', async (route) => {
      await held;
      await route.continue();
    });
    const tiles: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/tiles/'))
        tiles.push(new URL(request.url()).searchParams.get('fuel') ?? '');
    });
    await page.goto(`${fuel.url}/`);
    await page.getByTestId('stations-in-view').getByRole('button').first().waitFor();
    await page.getByLabel('Fuel').selectOption('EV');
    await page.getByTestId('stations-in-view').getByText(/kW$/).first().waitFor();
    release();
    await expect.poll(() => tiles.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(new Set(tiles)).toEqual(new Set(['EV']));
    expect(policyViolations(errors)).toEqual([]);
    await context.close();
  });

  it('shows the stations in view with popups and share links, finds places, switches to EV', async () => {
    const { page, errors, context } = await openPage(browser, { offsite });
    await page.goto(`${fuel.url}/`);
    await page.locator('.maplibregl-canvas').waitFor();
    const list = page.getByTestId('stations-in-view').getByRole('button');
    await list.first().waitFor();

    // The first listed is the cheapest in view; its card has name, address, price, currency and time.
    const prices = (await list.locator('.price').allTextContents()).map((t) =>
      Number(t.replace(/[^\d.]/g, '')),
    );
    expect(prices.length).toBeGreaterThan(3);
    expect([...prices].sort((a, b) => a - b)).toEqual(prices);
    await list.first().click();
    const card = page.locator('.selected').getByTestId('station-card');
    await expect(card.textContent()).resolves.toMatch(/B7 \(EUR\)stored/);
    await page.locator('.maplibregl-popup').getByTestId('station-card').waitFor();
    const link = await page.getByLabel('Share link').inputValue();
    const shared = new URL(link);
    const params = new URLSearchParams(shared.hash.slice(1));
    expect(params.get('station')).toMatch(/^ES:\d+$/);
    const name = await card.locator('h3').textContent();
    const address = await card.locator('p').nth(1).textContent();

    // The share link opens the same station (country and externalId) on a fresh page.
    const other = await openPage(browser, { offsite });
    await other.page.goto(link);
    const sharedCard = other.page.locator('.selected').getByTestId('station-card');
    await sharedCard.waitFor();
    expect(await sharedCard.locator('h3').textContent()).toBe(name);
    expect(await sharedCard.locator('p').nth(1).textContent()).toBe(address);
    await other.context.close();

    // Place search through the geocoder; an empty answer is explained.
    await page.getByLabel('Find a place').fill('Puerta del Sol');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('list', { name: 'Places found' }).getByRole('button').first().waitFor();
    expect(
      await page.getByRole('list', { name: 'Places found' }).getByRole('button').first().textContent(),
    ).toContain('Puerta del Sol');
    fuel.photon.features = [];
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText(/No place found for “Puerta del Sol”/).waitFor();

    // At 1280 px the Country and Fuel selects share their row without overlapping.
    const [countryBox, fuelBox] = await Promise.all(
      ['Country', 'Fuel'].map(async (label) => page.getByLabel(label, { exact: true }).boundingBox()),
    );
    expect((countryBox?.x ?? 0) + (countryBox?.width ?? 0)).toBeLessThanOrEqual(fuelBox?.x ?? 0);

    // EV mode lists chargers by power; the diesel station's card and popup go with the switch.
    await list.first().click();
    await page.locator('.maplibregl-popup').waitFor();
    await page.getByLabel('Fuel').selectOption('EV');
    await page.getByTestId('stations-in-view').getByText(/kW$/).first().waitFor();
    expect(await page.locator('.maplibregl-popup').count()).toBe(0);
    expect(await page.locator('.selected').count()).toBe(0);

    // A country with no data loaded says so, instead of asking to zoom out.
    await page.getByLabel('Country').selectOption('FR');
    await page.getByText('No data is loaded for France yet').waitFor();
    await page.getByLabel('Country').selectOption('ES');

    // Each country offers the fuels its feeds carry; one it lacks gives way to that country's default.
    type Country = { code: string; fuels: string[]; defaultFuel: string };
    const { enabledCountries } = (await (await fetch(`${fuel.url}/api/config`)).json()) as {
      enabledCountries: Country[];
    };
    const spain = enabledCountries.find((c) => c.code === 'ES') as Country;
    const france = enabledCountries.find((c) => c.code === 'FR') as Country;
    const offered = () =>
      page
        .getByLabel('Fuel')
        .locator('option')
        .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    const spanishOnly = spain.fuels.find((f) => !france.fuels.includes(f));
    expect(spanishOnly, 'a fuel only Spain carries').toBeDefined();
    await page.getByLabel('Fuel').selectOption(spanishOnly as string);
    expect(await offered()).toEqual(spain.fuels);
    await page.getByLabel('Country').selectOption('FR');
    await expect.poll(() => page.getByLabel('Fuel').inputValue()).toBe(france.defaultFuel);
    expect(await offered()).toEqual(france.fuels);
    await page.getByLabel('Country').selectOption('ES');

    expect(await seriousViolations(page)).toEqual([]);
    expect(policyViolations(errors)).toEqual([]);
    expect(offsite).toEqual([]);
    await context.close();
  });

  it('plans a route with alternatives, lists stations along it and streams their detours', async () => {
    fuel.osrm.reset();
    fuel.osrm.delayMs = 5;
    const { page, errors, context } = await openPage(browser, { offsite });
    await page.goto(`${fuel.url}/`);
    await page.getByTestId('stations-in-view').getByRole('button').first().waitFor();
    // Every text the progress line takes, to see detours arrive one by one.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progress: string[] }).progress = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="detour-progress"]')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByLabel('From').fill(MADRID);
    await page.getByLabel('To', { exact: true }).fill(TOLEDO);
    await page.getByLabel('Corridor (km each side)').fill('3');
    await page.getByRole('button', { name: 'Plan route' }).click();
    await page.getByTestId('detour-progress').filter({ hasText: 'Detours measured' }).waitFor();

    // The main route and the engine's alternatives.
    await expect(page.getByRole('radio').count()).resolves.toBe(3);
    expect(await page.getByRole('radio').first().isChecked()).toBe(true);

    // Stations along the route, cheapest first, each with its position and detour.
    const rows = page.getByTestId('route-stations').getByRole('button');
    const count = await rows.count();
    expect(count).toBeGreaterThan(2);
    const texts = await rows.allTextContents();
    expect(texts.every((t) => /km \d+ · (\+[\d.]+ min|no detour result)/.test(t))).toBe(true);
    const progress = await page.evaluate(() => (window as unknown as { progress: string[] }).progress);
    expect(progress.some((t) => /Measuring detours… [1-9]\d* of/.test(t))).toBe(true);
    await expect(page.getByTestId('best-within').textContent()).resolves.toMatch(
      /^Cheapest within 5 min: .+ \+[\d.]+ min\.$/,
    );

    // Each station was measured before → station → after, the anchors about 3 km either side on the route.
    const detourCalls = fuel.osrm.requests
      .map((url) => /^\/route\/v1\/[^/]+\/(.+)$/.exec(url.pathname)?.[1]?.split(';') ?? [])
      .filter((points) => points.length === 3)
      .map((points) => points.map((p) => p.split(',').map(Number) as LonLat));
    expect(detourCalls.length).toBe(count);
    const anchored = detourCalls.filter(([before, station, after]) => {
      const a = greatCircleKm(before as LonLat, station as LonLat);
      const b = greatCircleKm(station as LonLat, after as LonLat);
      return a > 1.5 && a < 4 && b > 1.5 && b < 4;
    });
    // Stations near either end have an anchor clamped to the route's start or end; the rest sit between two.
    expect(anchored.length).toBeGreaterThan(0);

    // Choosing an alternative lists the stations along it.
    await page.getByRole('radio').nth(1).check();
    await page.getByTestId('detour-progress').filter({ hasText: 'Detours measured' }).waitFor();

    expect(await seriousViolations(page)).toEqual([]);
    expect(policyViolations(errors)).toEqual([]);
    await context.close();
  });

  it('says clearly when routing is unavailable, dark and at phone size', async () => {
    fuel.osrm.reset();
    fuel.osrm.mode = 'error';
    const { page, errors, context } = await openPage(browser, {
      offsite,
      colorScheme: 'dark',
      viewport: { width: 390, height: 844 },
    });
    await page.goto(`${fuel.url}/`);
    // A click on the map (away from any station) sets the start, the next one the end.
    const canvas = page.locator('.maplibregl-canvas');
    await canvas.waitFor();
    const box = await canvas.boundingBox();
    await page.mouse.click((box?.x ?? 0) + 12, (box?.y ?? 0) + (box?.height ?? 0) - 12);
    await expect.poll(() => page.getByLabel('From').inputValue()).toMatch(/^-?\d+\.\d{5}, -?\d+\.\d{5}$/);
    // Latitude first, as typed points are read (the map opens on Spain: 36-44 N, 10 W-4 E).
    const [lat, lon] = (await page.getByLabel('From').inputValue()).split(', ').map(Number);
    expect(lat).toBeGreaterThan(30);
    expect(lat).toBeLessThan(50);
    expect(lon).toBeLessThan(10);
    await page.mouse.click((box?.x ?? 0) + 40, (box?.y ?? 0) + (box?.height ?? 0) - 12);
    await expect.poll(() => page.getByLabel('To', { exact: true }).inputValue()).toMatch(/^-?\d+\.\d{5}, /);
    await page.getByLabel('From').fill(MADRID);
    await page.getByLabel('To', { exact: true }).fill(TOLEDO);
    await page.getByRole('button', { name: 'Plan route' }).click();
    await page.getByRole('alert').filter({ hasText: 'No route: Routing service unavailable' }).waitFor();
    await page.locator('.maplibregl-canvas').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(policyViolations(errors)).toEqual([]);
    fuel.osrm.reset();
    await context.close();
  });

  it('draws the stations on the offline base map (land, coastlines, borders) when the base map cannot be loaded', async () => {
    // A style address nothing answers on: the page falls back to the build's offline style.
    const unreachable = await startTestFuel({
      env: { APP_MAP_STYLE_URL: 'http://127.0.0.1:9/styles/street.json' },
    });
    try {
      const { page, context } = await openPage(browser, { offsite });
      const world = page.waitForResponse((r) => r.url().endsWith('/static/world.geojson'));
      await page.goto(`${unreachable.url}/`);
      await page
        .getByRole('status')
        .filter({ hasText: 'stations are drawn on the offline base map' })
        .waitFor();
      // Natural Earth's land and borders, served by the page itself.
      const answer = await world;
      expect(answer.status()).toBe(200);
      type Shape = { properties: { kind: string }; geometry: { type: string; coordinates: unknown } };
      const { features } = (await answer.json()) as { features: Shape[] };
      expect(new Set(features.map((f) => f.properties.kind))).toEqual(new Set(['land', 'border']));
      // No line across the world: a ring or border jumps from -180 to 180 degrees only around the South
      // Pole (Fiji and Chukotka, cut at the antimeridian, had drawn a line at their latitudes).
      const jumps: number[] = [];
      const walk = (points: number[][]) => {
        for (let i = 1; i < points.length; i++) {
          const [a, b] = [points[i - 1] as number[], points[i] as number[]];
          if (Math.abs((b[0] as number) - (a[0] as number)) > 180) jumps.push(b[1] as number);
        }
      };
      for (const { geometry } of features) {
        const c = geometry.coordinates as number[][][][];
        if (geometry.type === 'MultiPolygon') for (const polygon of c) for (const ring of polygon) walk(ring);
        else if (geometry.type === 'Polygon' || geometry.type === 'MultiLineString')
          for (const line of c as unknown as number[][][]) walk(line);
      }
      expect(jumps.filter((lat) => lat > -60)).toEqual([]);
      // A popup opens only on a loaded map: the blank style took the failed one's place.
      await page.getByTestId('stations-in-view').getByRole('button').first().click();
      await page.locator('.maplibregl-popup').getByTestId('station-card').waitFor();
      await context.close();
    } finally {
      await unreachable.close();
    }
  });
});
