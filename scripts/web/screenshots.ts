/**
 * `npm run screenshots`: builds the pages if stale, starts the three services on their demo data on free
 * ports (the fuel map with its blank local style and the fake routing engine and geocoder; nothing leaves
 * the machine), and writes the main screens to `docs/screenshots/`, light and dark, desktop and phone.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { cli, databaseEnv, exportFolder } from '../../src/archive/cli/test-cli';
import { FIXTURE, MASTER, startTestViewer } from '../../src/archive/http/test-viewer';
import { BLANK_STYLE, startTestFuel } from '../../src/fuel/testing/server';
import {
  makeFixture,
  makeMedia,
  seedAccounts,
  startServer,
  writeModel,
  writeStandInWhisper,
} from '../../src/subtitles/test-support';
import { launchBrowser, openPage, type PageOptions } from '../../web/testing/browser';
import { buildStale } from './build';

const OUT = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');
const PHONE = { width: 390, height: 844 };

async function shoot(name: string, page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // Pictures in view (thumbnails load lazily) are decoded before the shot.
  await page
    .waitForFunction(() => [...document.images].every((img) => img.complete), null, { timeout: 10_000 })
    .catch(() => undefined);
  await page.screenshot({ path: path.join(OUT, `${name}.png`) });
  console.log(`docs/screenshots/${name}.png`);
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  await buildStale(['archive', 'fuel', 'subtitles']);
  const browser = await launchBrowser();
  const open = (options: PageOptions = {}) => openPage(browser, options);

  // Archive viewer.
  const viewer = await startTestViewer();
  try {
    const signIn = async (page: Page) => {
      await page.goto(`${viewer.url}/`);
      await page.getByLabel('User name').fill(MASTER.username);
      await page.getByLabel('Password').fill(MASTER.password);
    };
    let { page, context } = await open();
    await signIn(page);
    await shoot('archive-login', page);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: /Release Crew/ }).click();
    await page.locator(`[data-message="${FIXTURE.photoMessageId}"]`).waitFor();
    await shoot('archive-chat', page);
    await page.getByRole('button', { name: 'Jump to date' }).click();
    await page.getByLabel('Month', { exact: true }).fill('2026-03');
    await page.getByRole('button', { name: /March 1, 2026/ }).waitFor();
    await shoot('archive-calendar', page);
    await page.goto(`${viewer.url}/#/search/release`);
    await page.getByTestId('results').getByRole('link').first().waitFor();
    await shoot('archive-search', page);
    await page.goto(`${viewer.url}/#/admin/status`);
    await page.getByTestId('stats').waitFor();
    await shoot('archive-admin', page);
    await context.close();
    ({ page, context } = await open({ colorScheme: 'dark', viewport: PHONE }));
    await signIn(page);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: /Studio Forum/ }).click();
    await page.locator('[data-message]').first().waitFor();
    await shoot('archive-phone-dark', page);
    await context.close();
  } finally {
    await viewer.close();
  }

  // Archive viewer on real exports, as `archive-cli import` brings them in: polls, service lines, previews.
  const imported = await startTestViewer(undefined, { seed: false });
  try {
    const env = { ...databaseEnv(imported.database), BACKUP_PATH: imported.backupPath, LOG_LEVEL: 'WARNING' };
    for (const [sample, files, args] of [
      [
        'onlineverdan-civil-channel',
        { 'messages.html': 'messages.html', 'messages2.html': 'messages2.html' },
        ['-c', '-1001100000002'],
      ],
      ['tkonverter-synthetic', { 'result_group.json': 'result.json' }, []],
    ] as const) {
      const result = await cli(['import', '-p', exportFolder(sample, files), ...args], env);
      if (result.code !== 0) throw new Error(result.stderr);
    }
    const signIn = async (page: Page) => {
      await page.goto(`${imported.url}/`);
      await page.getByLabel('User name').fill(MASTER.username);
      await page.getByLabel('Password').fill(MASTER.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };
    let { page, context } = await open();
    await signIn(page);
    await page.getByRole('link', { name: /OnlineVerdan/ }).click();
    await page.locator('.poll').filter({ hasText: 'Infiltration capacity' }).scrollIntoViewIfNeeded();
    await shoot('archive-imported-polls', page);
    await context.close();
    ({ page, context } = await open({ viewport: PHONE }));
    await signIn(page);
    await page.getByRole('link', { name: /Team Chat/ }).click();
    await page.locator('.service').first().waitFor();
    await shoot('archive-imported-service-phone', page);
    await context.close();
  } finally {
    await imported.close();
  }

  // Fuel map.
  const fuel = await startTestFuel({ env: { APP_MAP_STYLE_URL: BLANK_STYLE } });
  try {
    let { page, context } = await open();
    await page.goto(`${fuel.url}/`);
    await page.getByTestId('stations-in-view').getByRole('button').first().click();
    await page.locator('.maplibregl-popup').waitFor();
    await shoot('fuel-map', page);
    await page.getByLabel('From').fill('40.42, -3.70');
    await page.getByLabel('To', { exact: true }).fill('38.72, -9.14');
    await page.getByRole('button', { name: 'Plan route' }).click();
    await page
      .getByTestId('detour-progress')
      .filter({ hasText: 'Detours measured' })
      .waitFor({ timeout: 60_000 });
    await page.getByRole('heading', { name: /Stations along the route/ }).scrollIntoViewIfNeeded();
    await shoot('fuel-route', page);
    await context.close();
    ({ page, context } = await open({ colorScheme: 'dark', viewport: PHONE }));
    await page.goto(`${fuel.url}/`);
    await page.getByTestId('stations-in-view').getByRole('button').first().waitFor();
    await shoot('fuel-phone-dark', page);
    await context.close();
  } finally {
    await fuel.close();
  }

  // Subtitles settings page, with a file held in the queue.
  const fixture = makeFixture();
  try {
    const { adminKey } = await seedAccounts(fixture.dataDir);
    const standIn = writeStandInWhisper(fixture.binDir);
    writeFileSync(standIn.hold, '');
    makeMedia(path.join(fixture.mediaDir, 'Films', 'Night Walk.mkv'));
    const server = await startServer({
      ...fixture.env,
      SUBTITLES_WHISPER_BINARY: standIn.path,
      SUBTITLES_WHISPER_MODEL: writeModel(fixture.dataDir),
    });
    try {
      let { page, context } = await open();
      await page.goto(`${server.url}/web/configurationpage?name=subtitles.html`);
      await page.getByLabel('API key').fill(adminKey);
      await page.getByRole('button', { name: 'Use key' }).click();
      await page.getByLabel('Media file (relative to the media folder)').fill('Films/Night Walk.mkv');
      await page.getByRole('button', { name: 'Queue file' }).click();
      await page.getByTestId('queue-state').filter({ hasText: 'Processing' }).waitFor();
      await shoot('subtitles-settings', page);
      await context.close();
      ({ page, context } = await open({ colorScheme: 'dark', viewport: PHONE }));
      await page.goto(`${server.url}/web/configurationpage?name=subtitles.html`);
      await shoot('subtitles-phone-dark', page);
      await context.close();
    } finally {
      await server.close();
    }
  } finally {
    fixture.remove();
  }
  await browser.close();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
