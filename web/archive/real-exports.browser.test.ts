/**
 * The viewer in Chromium on real exports imported by `archive-cli import` (a channel's HTML export with its
 * polls and pins, the desktop app's JSON with every kind of service message, a channel with voice notes
 * and files): the chat list previews each chat's last message, polls read as polls, service messages as
 * words, the voice player and file names keep their room, the gallery's tiles are square, and the
 * calendar opens on the month of the chat's newest message. Desktop and phone widths.
 */
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, databaseEnv, exportFolder } from '../../src/archive/cli/test-cli';
import { MASTER, startTestViewer, type TestViewer } from '../../src/archive/http/test-viewer';
import { launchBrowser, openPage, seriousViolations } from '../testing/browser';

let viewer: TestViewer;
let browser: Browser;

const IMPORTS: [string, Record<string, string>, string[], string[]][] = [
  [
    'onlineverdan-civil-channel',
    { 'messages.html': 'messages.html', 'messages2.html': 'messages2.html' },
    [],
    ['-c', '-1001100000002'],
  ],
  ['tkonverter-synthetic', { 'result_group.json': 'result.json' }, [], []],
  ['tg2md-channel', { 'result.json': 'result.json' }, ['files', 'photos', 'voice_messages'], []],
];

beforeAll(async () => {
  viewer = await startTestViewer(undefined, { seed: false });
  const env = {
    ...databaseEnv(viewer.database),
    BACKUP_PATH: viewer.backupPath,
    LOG_LEVEL: 'WARNING',
  };
  for (const [sample, files, folders, args] of IMPORTS) {
    const result = await cli(['import', '-p', exportFolder(sample, files, folders), ...args], env);
    expect(result.code, result.stderr).toBe(0);
  }
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
});

async function signIn(page: Page) {
  await page.goto(`${viewer.url}/`);
  await page.getByLabel('User name').fill(MASTER.username);
  await page.getByLabel('Password').fill(MASTER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const chats = (page: Page) => page.getByRole('list', { name: 'Chats' }).getByRole('link');

describe('real exports in the viewer', { timeout: 60_000 }, () => {
  it('previews each chat, shows polls as polls and service messages in words, at desktop and phone widths', async () => {
    for (const viewport of [undefined, { width: 390, height: 844 }]) {
      const { page, context } = await openPage(browser, { viewport });
      await signIn(page);
      // The list previews the last message: its sender and text (or what it is, in words).
      const team = chats(page).filter({ hasText: 'Team Chat' });
      await team.waitFor();
      // Its newest entry: Bob Sample's "Long-term retrospective" of 10 January 2027.
      expect(await team.locator('.chat-preview').textContent()).toBe('Bob Sample: Long-term retrospective');
      const civil = chats(page).filter({ hasText: 'OnlineVerdan' });
      expect((await civil.locator('.chat-preview').textContent())?.trim()).not.toBe('');

      const civilHref = await civil.getAttribute('href');
      await civil.click();
      // The channel's newest poll, among the messages the chat opens on.
      const poll = page.locator('.poll').filter({ hasText: 'Infiltration capacity' });
      await poll.scrollIntoViewIfNeeded();
      expect(await poll.locator('figcaption').textContent()).toContain('Anonymous poll');
      expect(await poll.locator('li').allTextContents()).toEqual([
        'Is a constant factor',
        'Changes with time',
        'Changes with location',
        'Changes with both time and location',
      ]);
      expect(await poll.textContent()).toContain('422 votes');
      // A forward from the HTML export names where it came from (the export gives no id).
      await page.goto(`${viewer.url}/${civilHref}?message=2029`);
      const forward = page.locator('[data-message="2029"] .forwarded');
      await forward.waitFor();
      expect(await forward.textContent()).toBe('Forwarded from OnlineVerdan Civil Aspirants');
      await page.screenshot({
        path: path.join(os.tmpdir(), `archive-forward-${viewport ? 'phone' : 'desktop'}.png`),
      });
      // The HTML export's bold, placed by the importer as the JSON export's is.
      await page.goto(`${viewer.url}/${civilHref}?message=1032`);
      const strong = page.locator('[data-message="1032"] p.text strong');
      await strong.first().waitFor();
      expect(await strong.first().textContent()).toContain('CIVIL ENGINEERING QUIZ');
      // The HTML export's pin quotes the message it pinned (1983), as a JSON export's pin does.
      await page.goto(`${viewer.url}/${civilHref}?message=1984`);
      const pin = page.locator('[data-message="1984"]');
      await pin.waitFor();
      expect(await pin.textContent()).toMatch(/^OnlineVerdan Civil Aspirants pinned “.+”/);
      await page.screenshot({
        path: path.join(os.tmpdir(), `archive-pin-${viewport ? 'phone' : 'desktop'}.png`),
      });
      expect(await seriousViolations(page)).toEqual([]);

      await page.goto(`${viewer.url}/`);
      await chats(page).filter({ hasText: 'Team Chat' }).click();
      const lines = page.locator('.service');
      await lines.first().waitFor();
      const words = (await lines.allTextContents()).map((t) => t.trim());
      expect(words).toEqual(
        expect.arrayContaining([
          'Me created the group “Team Chat” with Alice Example and Bob Sample',
          'Me changed the group name to “Team Chat v2”',
          'Me added Charlie Test',
          'Alice Example joined the group via an invite link from Me',
          'Me removed Charlie Test',
          'Me pinned “Welcome everyone!”',
        ]),
      );
      for (const line of words) expect(line).not.toMatch(/\b[a-z]+_[a-z_]+\b/);
      await context.close();
    }
  });

  it('keeps the page one screen high in a chat with a poll the user voted in, opened at a message', async () => {
    const { page, errors, context } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
    await signIn(page);
    const team = chats(page).filter({ hasText: 'Team Chat' });
    await team.waitFor();
    await page.goto(`${viewer.url}/${await team.getAttribute('href')}?message=8`);
    await page.locator('.poll li.chosen').first().waitFor();
    // A post's signature, as the export wrote it ("author"), beside its time.
    await page.goto(`${viewer.url}/${await team.getAttribute('href')}?message=25`);
    expect(await page.locator('[data-message="25"] .foot .signature').textContent()).toBe('Admin');
    await page.goto(`${viewer.url}/${await team.getAttribute('href')}?message=8`);
    await page.locator('.poll li.chosen').first().waitFor();
    // The option's hidden "(your vote)" had been placed from the document, far down the message list:
    // 1,538 px high, the top bar (search, Administration, Sign out) scrolled away.
    const heights = await page.evaluate(() => ({
      page: document.scrollingElement?.scrollHeight ?? 0,
      window: window.innerHeight,
      scrolled: window.scrollY,
    }));
    expect(heights.page).toBeLessThanOrEqual(heights.window);
    expect(heights.scrolled).toBe(0);
    expect(await page.getByLabel('Search all chats').isVisible()).toBe(true);
    await page.screenshot({ path: path.join(os.tmpdir(), 'archive-voted-poll.png') });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('gives the voice player and file names their room, squares the gallery, and opens the calendar on the newest month', async () => {
    const { page, context } = await openPage(browser);
    await signIn(page);
    // The channel export of tg2md names its chat "test".
    await chats(page)
      .filter({ has: page.locator('.chat-title', { hasText: /^test$/ }) })
      .click();
    const audio = page.locator('.voice audio').first();
    await audio.waitFor();
    // The export's formatting, placed by the importer: bold pieces and a link with its own target.
    const bold = page.locator('[data-message="10"] p.text strong');
    expect((await bold.allTextContents()).map((t) => t.trim())).toEqual([
      'bold',
      'bold below',
      'bold with one line gap',
    ]);
    expect(await page.locator('[data-message="14"] a[href="http://example.com/"]').textContent()).toBe(
      'text link\n\n',
    );
    expect(await page.locator('[data-message="5"] em').textContent()).toContain('italic');
    await page.locator('[data-message="14"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(os.tmpdir(), 'archive-formatting.png') });
    expect((await audio.boundingBox())?.width).toBeGreaterThan(200);
    const file = page.locator('a.document').first();
    expect(await file.getAttribute('title')).toBeTruthy();

    await page.getByRole('button', { name: 'Media', exact: true }).click();
    const tiles = page.locator('.grid li > button');
    await tiles.first().waitFor();
    const heights = new Set(
      await Promise.all(
        (await tiles.all()).map(async (t) => Math.round((await t.boundingBox())?.height ?? 0)),
      ),
    );
    const widths = new Set(
      await Promise.all(
        (await tiles.all()).map(async (t) => Math.round((await t.boundingBox())?.width ?? 0)),
      ),
    );
    expect([...heights]).toEqual([...widths]);
    expect(heights.size).toBe(1);

    await page.getByRole('button', { name: 'Jump to date' }).click();
    // The channel's newest message is of July 2021.
    await expect(page.getByLabel('Month', { exact: true }).inputValue()).resolves.toBe('2021-07');
    await context.close();
  });
});
