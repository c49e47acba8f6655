/**
 * The plugin's settings page in Chromium against the real server: sign-in, every setup flag explained,
 * a queued file moving through the live queue, the injection diagnosis, the legacy-authorization switch,
 * the page's policy and an accessibility check, in light and dark and at phone size.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authHeader,
  type Fixture,
  makeFixture,
  makeMedia,
  type Server,
  seedAccounts,
  startServer,
  writeModel,
  writeStandInWhisper,
} from '../../src/subtitles/test-support';
import {
  focusOutline,
  launchBrowser,
  nextAnswerTo,
  openPage,
  openUnroutedPage,
  policyViolations,
  seriousViolations,
} from '../testing/browser';

let fixture: Fixture;
let server: Server;
let browser: Browser;
let adminKey: string;
let hold: string;

beforeAll(async () => {
  fixture = makeFixture();
  ({ adminKey } = await seedAccounts(fixture.dataDir));
  const standIn = writeStandInWhisper(fixture.binDir);
  hold = standIn.hold;
  const model = writeModel(fixture.dataDir);
  makeMedia(path.join(fixture.mediaDir, 'Films', 'Night Walk.mkv'));
  server = await startServer({
    ...fixture.env,
    SUBTITLES_WHISPER_BINARY: standIn.path,
    SUBTITLES_WHISPER_MODEL: model,
    SUBTITLES_LEGACY_AUTHORIZATION: 'true',
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  fixture?.remove();
});

describe('the subtitles settings page', () => {
  it('is served as the plugin page /web/configurationpage?name=subtitles.html under a same-origin policy', async () => {
    const res = await fetch(`${server.url}/web/configurationpage?name=subtitles.html`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).toContain('<meta name="plugin" content="Subtitles">');
    const script = await fetch(`${server.url}/web/configurationpage?name=subtitles-settings.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    // The host's address sends a browser on to the web client, as the media server does.
    const root = await fetch(`${server.url}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/web/index.html']);
  });

  it('answers the browser’s icon request, so no resource fails to load', async () => {
    const { page, errors, context } = await openUnroutedPage(browser);
    const icon = nextAnswerTo('/favicon.ico');
    await page.goto(`${server.url}/web/configurationpage?name=subtitles.html`);
    expect(await icon).toEqual({ status: 200, type: 'image/x-icon' });
    expect(errors.filter((line) => /Failed to load resource/.test(line))).toEqual([]);
    await context.close();
  });

  it('signs in with a password, explains the setup, follows a queued file, switches legacy authorization', async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${server.url}/web/configurationpage?name=subtitles.html`);
    await page.getByLabel('User name').fill('viewer');
    await page.getByLabel('Password').fill('viewer password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This account is not an administrator.').waitFor();

    await page.getByLabel('User name').fill('admin');
    await page.getByLabel('Password').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in' }).click();

    // Setup: the stand-in engine and model are found; each GPU flag is listed with its meaning.
    await expect(page.getByTestId('setup-verdict').textContent()).resolves.toContain(
      'Local transcription can run',
    );
    for (const flag of ['HasVendorAGpu', 'HasCudaLibrary', 'HasRenderDevice', 'HasOpenMP', 'HasAvx'])
      await expect(page.getByRole('rowheader', { name: flag }).count()).resolves.toBe(1);

    // The injection diagnosis, Message first.
    const injection = await page.getByTestId('injection-message').textContent();
    expect(injection).toMatch(/^(OK|WARNING|ERROR):/);

    // A file queued from the page moves through the live queue while the engine is held.
    writeFileSync(hold, '');
    await page.getByLabel('Media file (relative to the media folder)').fill('Films/Night Walk.mkv');
    await page.getByRole('button', { name: 'Queue file' }).click();
    await page.getByText('Queued Night Walk (en).').waitFor();
    await page.getByTestId('queue-state').filter({ hasText: 'Processing Night Walk' }).waitFor();
    rmSync(hold);
    await page.getByTestId('queue-processed').filter({ hasText: '1' }).waitFor();
    await page.getByTestId('queue-state').filter({ hasText: 'Idle' }).waitFor();

    // A path outside the library is refused with the server's reason.
    await page.getByLabel('Media file (relative to the media folder)').fill('../etc/passwd');
    await page.getByRole('button', { name: 'Queue file' }).click();
    await page.getByText(/^Not queued:/).waitFor();

    // A scan that cannot run says why, beside the button: here the media folder is gone.
    renameSync(fixture.mediaDir, `${fixture.mediaDir}.away`);
    try {
      await page.getByRole('button', { name: 'Scan library' }).click();
      await page.getByText(/^Not scanned: The media folder .* does not exist/).waitFor();
    } finally {
      renameSync(`${fixture.mediaDir}.away`, fixture.mediaDir);
    }

    // The legacy switch: off, then the legacy header is refused.
    const legacy = page.getByRole('switch', { name: 'Accept the legacy token header' });
    expect(await legacy.isChecked()).toBe(true);
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/System/Configuration') && r.request().method() === 'POST',
    );
    await legacy.uncheck();
    expect((await saved).status()).toBe(204);
    const viaLegacy = await fetch(`${server.url}/Plugins/Subtitles/Queue`, {
      headers: { 'X-Media-Token': adminKey },
    });
    expect(viaLegacy.status).toBe(401);
    const config = await fetch(`${server.url}/System/Configuration`, { headers: authHeader(adminKey) });
    expect(await config.json()).toEqual({ EnableLegacyAuthorization: false });

    // Keyboard: the focus ring is visible.
    await page.keyboard.press('Tab');
    expect((await focusOutline(page)).width).toBeGreaterThan(0);

    expect(await seriousViolations(page)).toEqual([]);
    expect(policyViolations(errors)).toEqual([]);
    await context.close();
  });

  it('asks for the key again when it is refused, and reads well dark at phone size', async () => {
    const { page, errors, context } = await openPage(browser, {
      colorScheme: 'dark',
      viewport: { width: 390, height: 844 },
    });
    await page.goto(`${server.url}/web/configurationpage?name=subtitles.html`);
    await page.getByLabel('API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Use key' }).click();
    await page.getByRole('alert').filter({ hasText: 'the key was refused' }).waitFor();
    await page.getByLabel('API key').fill(adminKey);
    await page.getByRole('button', { name: 'Use key' }).click();
    await page.getByTestId('setup-verdict').waitFor();
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(17, 24, 39)');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(policyViolations(errors)).toEqual([]);
    await context.close();
  });

  it('shows inside the media server web client’s dashboard as a data-role="page" view, with its sign-in', async () => {
    // What the web client does with a plugin page (release 10.11): fetch the HTML, keep the div marked
    // data-role="page", put it in the page, then import the module its data-controller names; its
    // `ApiClient` global holds the signed-in user's token.
    const signIn = await fetch(`${server.url}/Users/AuthenticateByName`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        Authorization:
          'MediaBrowser Client="Jellyfin Web", Device="Chromium", DeviceId="view-test", Version="10.11.11"',
      },
      body: JSON.stringify({ Username: 'admin', Pw: 'correct horse battery staple' }),
    });
    const { AccessToken } = (await signIn.json()) as { AccessToken: string };
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${server.url}/web/index.html`);
    // A script of text: the test runner would otherwise rewrite its `import()`.
    const controller = await page.evaluate(`(async (token) => {
      globalThis.ApiClient = { accessToken: () => token };
      // The web client loads a Custom Elements polyfill (webcomponents.js 0.7) that replaces
      // createElementNS with one reading its third argument as a type-extension name (a string).
      const native = document.createElementNS.bind(document);
      document.createElementNS = function (namespace, tag, typeExtension) {
        if (typeExtension) typeExtension.toLowerCase();
        return native(namespace, tag);
      };
      const html = await (await fetch('configurationpage?name=subtitles-page')).text();
      const holder = document.createElement('div');
      holder.innerHTML = html;
      const view = holder.querySelector('div[data-role="page"]');
      if (!view) throw new Error('no data-role="page" div');
      view.classList.add('mainAnimatedPage');
      document.body.replaceChildren(view);
      const name = (view.getAttribute('data-controller') || '').replace('__plugin/', '');
      await import('/web/configurationpage?name=' + encodeURIComponent(name));
      view.dispatchEvent(new CustomEvent('viewshow', { bubbles: true }));
      return name;
    })(${JSON.stringify(AccessToken)})`);
    expect(controller).toBe('subtitles-settings.js');
    // Signed in already: no sign-in form, the setup verdict shows.
    await expect(page.getByTestId('setup-verdict').textContent()).resolves.toContain(
      'Local transcription can run',
    );
    await expect(page.getByLabel('Password').count()).resolves.toBe(0);
    await page.screenshot({ path: path.join(os.tmpdir(), 'subtitles-in-web-client.png'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });
});
