/**
 * The archive viewer in Chromium against the real viewer on the fixture archive: the unconfigured viewer
 * explained, password login, the chat list and its filters, the message view (date separators, pinned
 * banner, replies, reactions, edits with their versions, deletions, forum topics), scrolling back through
 * the cursor, jumping to a date, search and tags, the master's administration with a share link that
 * then signs a second browser in with a no-download scope, the gallery with its lightbox, the export of a
 * date range, live updates through the real push route and WebSocket (and the page's own reconnect and
 * revocation handling against scripted frames); accessibility and the page's policy checked.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/archive/types';
import type { ClientMessage, ServerMessage } from '../../generated/archive-updates/frames';
import { FIXTURE, MASTER, startTestViewer, type TestViewer } from '../../src/archive/http/test-viewer';
import {
  focusOutline,
  launchBrowser,
  nextAnswerTo,
  openPage,
  openUnroutedPage,
  policyViolations,
  seriousViolations,
} from '../testing/browser';

let viewer: TestViewer;
let browser: Browser;

beforeAll(async () => {
  viewer = await startTestViewer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
});

async function signIn(page: Page, username = MASTER.username, password = MASTER.password) {
  await page.goto(`${viewer.url}/`);
  await page.getByLabel('User name').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('the archive viewer', () => {
  it('answers the browser’s icon request, so the console opens without an error', async () => {
    const { page, errors, context } = await openUnroutedPage(browser);
    const icon = nextAnswerTo('/favicon.ico');
    await page.goto(`${viewer.url}/`);
    expect(await icon).toEqual({ status: 200, type: 'image/x-icon' });
    await page.getByLabel('User name').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is served at / and /sw.js under a policy without inline script or eval, and explains a viewer with no login set up', async () => {
    const res = await fetch(`${viewer.url}/`);
    expect(res.status).toBe(200);
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toMatch(/unsafe-(inline|eval)/);
    expect((await fetch(`${viewer.url}/sw.js`)).headers.get('content-type')).toMatch(/javascript/);

    const bare = await startTestViewer({}, { seed: false });
    try {
      const { page, errors, context } = await openPage(browser);
      await page.goto(`${bare.url}/`);
      await page.getByText('The viewer is not set up yet.').waitFor();
      await expect(page.getByRole('alert').textContent()).resolves.toContain('VIEWER_USERNAME');
      expect(await seriousViolations(page)).toEqual([]);
      expect(policyViolations(errors)).toEqual([]);
      await context.close();
    } finally {
      await bare.close();
    }
  });

  it('signs in, filters chats, reads a chat back through its history, its versions and pins, jumps to a date', async () => {
    const { page, errors, context } = await openPage(browser);
    await signIn(page, MASTER.username, 'wrong password');
    await page.getByRole('alert').filter({ hasText: 'Invalid credentials' }).waitFor();
    await signIn(page);

    // The chat list, newest first; the name filter and the archived chats.
    const rows = page.getByRole('list', { name: 'Chats' }).getByRole('link');
    await rows.first().waitFor();
    expect(await rows.first().textContent()).toContain('Release Crew');
    await page.getByLabel('Filter chats').fill('anna');
    // The row whose title is Anna Berg (the Family chat's preview names her too).
    await page
      .getByRole('list', { name: 'Chats' })
      .getByRole('link', { name: /^Anna Berg/ })
      .waitFor();
    await expect.poll(() => page.getByRole('list', { name: 'Chats' }).getByRole('link').count()).toBe(1);
    await page.getByLabel('Filter chats').fill('');
    await page.getByRole('button', { name: /^Archived \(1\)$/ }).click();
    await page.getByRole('list', { name: 'Archived chats' }).getByRole('link').first().waitFor();
    await page.getByRole('button', { name: 'Back to chats' }).click();

    // A deleted message is marked, not hidden.
    await page.getByRole('link', { name: /^Anna Berg/ }).click();
    await page
      .locator(`[data-message="${FIXTURE.deletedMessageId}"]`)
      .getByText(/^Deleted/)
      .waitFor();

    // Release Crew: the pinned banner, a reply, reactions, date separators.
    await page.getByRole('link', { name: /Release Crew/ }).click();
    const log = page.getByRole('log', { name: 'Messages' });
    const photo = log.locator(`[data-message="${FIXTURE.photoMessageId}"]`);
    await photo.waitFor();
    await expect(page.locator('.pinned-banner').textContent()).resolves.toContain(
      'Release checklist for 2.4',
    );
    await expect(photo.locator('.reply').textContent()).resolves.toContain(
      'Does anyone have the photos from Saturday?',
    );
    await expect(photo.getByRole('list', { name: 'Reactions' }).getByRole('listitem').count()).resolves.toBe(
      2,
    );
    expect(await log.locator('h2.day').count()).toBeGreaterThan(1);

    // The edited message's versions panel.
    await photo.getByRole('button', { name: 'edited' }).click();
    const versions = page.getByRole('dialog', { name: 'Earlier versions' });
    await versions
      .getByRole('listitem')
      .filter({ hasText: "Photos from Saturday's release party are up." })
      .waitFor();
    await versions.getByRole('button', { name: 'Close' }).click();

    // Scrolling up walks back through the cursor to the first message (57 in all, 50 per page).
    await expect(log.locator('[data-message]').count()).resolves.toBe(50);
    await log.evaluate((el) => {
      el.scrollTop = 0;
    });
    await log.locator('[data-message="4100"]').waitFor();
    expect(await log.locator('[data-message]').count()).toBe(FIXTURE.releaseCrewMessages);

    // The calendar offers the days with messages and jumps to the first message of one.
    await page.getByRole('button', { name: 'Jump to date' }).click();
    await page.getByLabel('Month', { exact: true }).fill('2026-03');
    const day = page.getByRole('button', { name: /March 1, 2026/ });
    await expect.poll(() => day.isEnabled()).toBe(true);
    await expect(page.getByRole('button', { name: /March 31, 2026/ }).isDisabled()).resolves.toBe(true);
    await day.click();
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-message') === '4100');

    // Forum topics narrow the messages.
    await page.getByRole('link', { name: /Studio Forum/ }).click();
    const topics = page.getByRole('navigation', { name: 'Topics' });
    await topics.getByRole('button').nth(1).waitFor();
    const all = await log.locator('[data-message]').count();
    await topics.getByRole('button').nth(1).click();
    await page.waitForFunction((before) => document.querySelectorAll('[data-message]').length < before, all);

    await page.keyboard.press('Tab');
    expect((await focusOutline(page)).width).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(policyViolations(errors)).toEqual([]);
    await context.close();
  });

  it('says in words why a file is not in the archive, never its stored code', async () => {
    const { page, errors, context } = await openPage(browser);
    await signIn(page);
    // Signed in before the address changes: a jump while the login is still in flight could be lost.
    await page.getByRole('list', { name: 'Chats' }).getByRole('link').first().waitFor();
    await page.goto(`${viewer.url}/#/chat/${FIXTURE.news.ref}?message=300`);
    const missing = page.locator('[data-message="300"] .media-missing');
    // With the file's name, so a reader knows what is missing.
    await missing
      .getByText('File: specyard-2.4.0.tar.gz not in the archive (larger than the download limit).')
      .waitFor();
    expect(await missing.textContent()).not.toContain('oversize');
    // A channel's post without an author is the channel's.
    expect(await page.locator('[data-message="300"] .meta strong').textContent()).toBe('Specyard News');
    await page.screenshot({ path: path.join(os.tmpdir(), 'archive-skip-reason.png') });
    expect(policyViolations(errors)).toEqual([]);
    await context.close();
  });

  it('searches across chats with highlights, opens a result in its chat, follows a tag', async () => {
    const { page, errors, context } = await openPage(browser, { colorScheme: 'dark' });
    await signIn(page);
    await page.getByLabel('Search all chats').fill('freeze');
    await page.getByLabel('Search all chats').press('Enter');
    const results = page.getByTestId('results').getByRole('link');
    await results.first().waitFor();
    await expect(results.first().locator('mark').first().textContent()).resolves.toMatch(/^freeze$/i);
    await results.first().click();
    await page.getByRole('log', { name: 'Messages' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.hasAttribute('data-message'));
    expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toMatch(/freeze/i);

    await page.locator('a.tag', { hasText: '#release' }).first().click();
    await page.getByRole('heading', { name: 'Tag #release' }).waitFor();
    await results.first().waitFor();
    expect(await results.count()).toBeGreaterThan(2);
    expect(await seriousViolations(page)).toEqual([]);

    // A query without words is matched as text by design: no note about a missing index.
    await page.getByLabel('Search all chats').fill('🎉');
    await page.getByLabel('Search all chats').press('Enter');
    await page.getByRole('heading', { name: 'Search: “🎉”' }).waitFor();
    await page.locator('[data-testid=results] li, p.muted.pad').first().waitFor();
    expect(await page.locator('p.notice').count()).toBe(0);
    expect(policyViolations(errors)).toEqual([]);
    await context.close();
  });

  it('lets the master create a share link that signs another browser in to one chat without downloads', async () => {
    const { page, errors, context } = await openPage(browser);
    await signIn(page);
    await page.getByRole('link', { name: 'Administration' }).click();
    await expect(page.getByTestId('stats').textContent()).resolves.toMatch(/Chats\d+Messages\d+/);
    await page.getByRole('link', { name: 'Share links' }).click();
    await page.getByLabel('Label').fill('for Anna');
    const picker = page.getByRole('group', { name: 'Chats the link opens' });
    await picker.getByLabel(/Release Crew/).check();
    await page.getByLabel('No downloads').check();
    await page.getByRole('button', { name: 'Create share link' }).click();
    const link = await page.getByLabel(/New share link/).inputValue();
    expect(link).toMatch(new RegExp(`^${viewer.url}/#token=[0-9a-f]{64}$`));
    await page.getByRole('table', { name: 'Share links' }).getByText('for Anna').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Another browser opens the link: the token leaves the address bar, one chat, no download controls.
    const guest = await openPage(browser, { viewport: { width: 390, height: 844 } });
    await guest.page.goto(link);
    const rows = guest.page.getByRole('list', { name: 'Chats' }).getByRole('link');
    await rows.first().waitFor();
    expect(guest.page.url()).not.toContain('token');
    await expect(rows.count()).resolves.toBe(1);
    await rows.first().click();
    await guest.page.locator(`[data-message="${FIXTURE.photoMessageId}"]`).waitFor();
    await expect(guest.page.getByRole('button', { name: 'Export' }).count()).resolves.toBe(0);
    await expect(
      guest.page.locator(`[data-message="${FIXTURE.photoMessageId}"] img.thumb, .thumb`).count(),
    ).resolves.toBe(0);
    await guest.page.getByText('(downloads are off for this login)').first().waitFor();
    const overflow = await guest.page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(guest.page)).toEqual([]);
    expect(policyViolations(guest.errors)).toEqual([]);

    // The audit log records the link's creation; ending every other session signs the guest out.
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('table', { name: 'Audit log' }).getByRole('row').nth(1).waitFor();
    await page.getByRole('link', { name: 'Sessions' }).click();
    await page.getByRole('button', { name: 'End all sessions' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /\d+ sessions ended/ })
      .waitFor();
    await guest.page.reload();
    await guest.page.getByRole('button', { name: 'Sign in' }).waitFor();
    await guest.context.close();
    expect(policyViolations(errors)).toEqual([]);
    await context.close();
  }, 60_000);

  it('lets the master create a viewer with one chat, see it used, disable it and revoke a share link', async () => {
    const { page, errors, context } = await openPage(browser);
    await signIn(page);
    await page.getByRole('link', { name: 'Administration' }).click();
    await page.getByRole('link', { name: 'Viewers' }).click();
    await page.getByLabel('User name').fill('grandpa');
    await page.getByLabel('Password').fill('long-enough-pass');
    await page.getByRole('checkbox', { name: 'All chats' }).uncheck();
    await page
      .getByRole('group', { name: 'Chats this viewer may see' })
      .getByLabel(/Release Crew/)
      .check();
    await page.getByLabel(/No downloads/).check();
    await page.getByRole('button', { name: 'Create viewer' }).click();
    await page.getByRole('status').filter({ hasText: 'Viewer grandpa created.' }).waitFor();
    const row = page.getByRole('table', { name: 'Viewer accounts' }).getByRole('row', { name: /grandpa/ });
    await expect(row.getByRole('cell').nth(1).textContent()).resolves.toContain('Release Crew');
    await expect(row.getByRole('cell').nth(2).textContent()).resolves.toBe('off');
    expect(await seriousViolations(page)).toEqual([]);

    // The new viewer sees the one chat and no download controls.
    const other = await openPage(browser);
    await signIn(other.page, 'grandpa', 'long-enough-pass');
    const chats = other.page.getByRole('list', { name: 'Chats' }).getByRole('link');
    await chats.first().waitFor();
    await expect(chats.count()).resolves.toBe(1);
    await expect(chats.first().textContent()).resolves.toContain('Release Crew');

    // Disabling the account ends its sessions: the other browser is back at the sign-in form.
    await row.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('status').filter({ hasText: 'sessions were ended' }).waitFor();
    await row.getByRole('button', { name: 'Enable' }).waitFor();
    await expect(row.getByRole('cell').nth(3).textContent()).resolves.toBe('no');
    await other.page.reload();
    await other.page.getByRole('button', { name: 'Sign in' }).waitFor();
    await other.context.close();

    // A share link is revoked and restored from its row.
    await page.getByRole('link', { name: 'Share links' }).click();
    await page.getByLabel('Label').fill('to revoke');
    await page
      .getByRole('group', { name: 'Chats the link opens' })
      .getByLabel(/Release Crew/)
      .check();
    await page.getByRole('button', { name: 'Create share link' }).click();
    const link = page.getByRole('table', { name: 'Share links' }).getByRole('row', { name: /to revoke/ });
    await link.getByRole('button', { name: 'Revoke' }).click();
    await link.getByRole('cell', { name: 'revoked' }).waitFor();
    await link.getByRole('button', { name: 'Restore' }).click();
    await link.getByRole('cell', { name: 'active' }).waitFor();
    expect(policyViolations(errors)).toEqual([]);
    await context.close();
  }, 60_000);

  it('shows a chat’s media in the gallery with a lightbox, and exports a date range as a JSON file', async () => {
    const { page, errors, context } = await openPage(browser);
    await signIn(page);
    await page.getByRole('link', { name: /Release Crew/ }).click();
    await page.getByRole('button', { name: 'Media', exact: true }).click();
    const gallery = page.getByRole('region', { name: 'Media of this chat' });
    const thumbs = gallery.locator('button.thumb img');
    await thumbs.first().waitFor();
    // Every thumbnail the server hands out loads as a picture.
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('.gallery button.thumb img')].every(
        (img) => img.complete && img.naturalWidth > 0,
      ),
    );
    const counts = (await page.evaluate(
      (ref) => fetch(`/api/chats/${ref}/media/counts`).then((r) => r.json()),
      FIXTURE.releaseCrew.ref,
    )) as Record<string, number>;
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    await expect(gallery.locator('li').count()).resolves.toBe(total);
    await gallery.getByRole('combobox', { name: 'Type' }).selectOption('photo');
    await page.waitForFunction(
      (n) => document.querySelectorAll('.gallery li').length === n,
      counts.photo ?? 0,
    );
    await thumbs.first().click();
    const lightbox = page.locator('dialog.lightbox');
    await lightbox.locator('img').waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('dialog.lightbox img');
      return !!img && img.complete && img.naturalWidth > 0;
    });
    await page.screenshot({ path: path.join(os.tmpdir(), 'archive-gallery.png') });
    await page.keyboard.press('Escape');
    // The dialog closes on the next render: wait for it to go (throws after the default time-out).
    await lightbox.waitFor({ state: 'detached' });
    await expect(lightbox.count()).resolves.toBe(0);

    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByLabel('From').fill('2026-03-14');
    await page.getByLabel('To (whole day)').fill('2026-03-14');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Release Crew_export.json');
    const exported = JSON.parse(await readFile(String(await download.path()), 'utf8')) as {
      chat: { ref: string };
      filters: { from: string; to: string };
      messages: { date: string }[];
    };
    expect(exported.chat.ref).toBe(FIXTURE.releaseCrew.ref);
    expect(exported.filters).toMatchObject({ from: '2026-03-14', to: '2026-03-14' });
    expect(exported.messages.length).toBeGreaterThan(0);
    for (const m of exported.messages) expect(m.date.slice(0, 10)).toBe('2026-03-14');
    await page.getByRole('status').filter({ hasText: 'Export downloaded.' }).waitFor();
    expect(policyViolations(errors)).toEqual([]);
    await context.close();
  });

  it('shows what the backup pushes through the real WebSocket while the chat is open, also after a drop', async () => {
    // The real path: the backup's POST /internal/push → the viewer's bus → /ws/updates → the page.
    const push = async (type: string, data: Record<string, unknown>) => {
      const res = await fetch(`${viewer.url}/internal/push`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${viewer.wiring.live.pushSecret}`,
        },
        body: JSON.stringify({ type, chat_id: FIXTURE.releaseCrew.id, account_id: 1, data }),
      });
      expect(res.status).toBe(200);
    };
    const { page, errors, context } = await openPage(browser);
    await signIn(page);
    await page.getByRole('link', { name: /Release Crew/ }).click();
    await page.getByTestId('live-state').filter({ hasText: 'Live' }).waitFor();
    // The server has the page's subscription once it answers; wait for the socket to be counted.
    while (viewer.wiring.live.hub.connections === 0) await new Promise((r) => setTimeout(r, 20));

    const latest = (await page.evaluate(
      (ref) => fetch(`/api/chats/${ref}/messages?limit=1`).then((r) => r.json()),
      FIXTURE.releaseCrew.ref,
    )) as components['schemas']['Message'][];
    const base = latest[0] as components['schemas']['Message'];
    const id = base.id + 100;
    await push('new_message', {
      message: {
        ...base,
        id,
        text: 'Pushed live by the backup',
        date: new Date().toISOString(),
        reactions: [],
      },
    });
    const fresh = page.locator(`[data-message="${id}"]`);
    await fresh.getByText('Pushed live by the backup').waitFor();
    await push('edit', { message_id: id, new_text: 'Edited live', edit_date: new Date().toISOString() });
    await fresh.getByText('Edited live').waitFor();
    await push('delete', { message_id: id, deletion_mode: 'soft', deleted_at: new Date().toISOString() });
    await fresh.locator('.deleted-mark').waitFor();

    // The connection drops under the page (as a proxy or a network would): it says so, connects again,
    // subscribes again, and the next event arrives.
    const hub = viewer.wiring.live.hub as unknown as { wss: { clients: Set<{ terminate(): void }> } };
    for (const socket of hub.wss.clients) socket.terminate();
    await page.getByTestId('live-state').filter({ hasText: 'Reconnecting' }).waitFor();
    await page.getByTestId('live-state').filter({ hasText: 'Live' }).waitFor();
    while (viewer.wiring.live.hub.connections === 0) await new Promise((r) => setTimeout(r, 20));
    await push('new_message', {
      message: { ...base, id: id + 1, text: 'After the drop', date: new Date().toISOString(), reactions: [] },
    });
    await page
      .locator(`[data-message="${id + 1}"]`)
      .getByText('After the drop')
      .waitFor();
    await page.screenshot({ path: path.join(os.tmpdir(), 'archive-live-real.png') });
    expect(policyViolations(errors)).toEqual([]);
    await context.close();
  });

  it('applies live updates of the open chat and reconnects after a drop', async () => {
    // The page's socket is answered here with frames of the AsyncAPI document: the viewer's client is
    // what is under test (the server side of /ws/updates has its own suite).
    const sockets: WebSocketRoute[] = [];
    const received: ClientMessage[] = [];
    const { page, errors, context } = await openPage(browser);
    await page.routeWebSocket(/\/ws\/updates$/, (ws) => {
      sockets.push(ws);
      ws.onMessage((data) => {
        const message = JSON.parse(String(data)) as ClientMessage;
        received.push(message);
        if (message.action === 'subscribe')
          ws.send(JSON.stringify({ type: 'subscribed', chat_ref: message.chat_ref } satisfies ServerMessage));
      });
    });
    await signIn(page);
    await page.getByRole('link', { name: /Release Crew/ }).click();
    await page.getByTestId('live-state').filter({ hasText: 'Live' }).waitFor();
    expect(received).toContainEqual({ action: 'subscribe', chat_ref: FIXTURE.releaseCrew.ref });

    const latest = (await page.evaluate(
      (ref) => fetch(`/api/chats/${ref}/messages?limit=1`).then((r) => r.json()),
      FIXTURE.releaseCrew.ref,
    )) as components['schemas']['Message'][];
    const base = latest[0] as components['schemas']['Message'];
    const frames: ServerMessage[] = [
      {
        type: 'new_message',
        chat_ref: FIXTURE.releaseCrew.ref,
        message: {
          ...base,
          id: base.id + 1,
          text: 'Tag is out, see you at the party',
          date: new Date().toISOString(),
          media: undefined,
          edit_date: null,
          reactions: [],
        },
      },
      {
        type: 'reaction',
        chat_ref: FIXTURE.releaseCrew.ref,
        message_id: base.id + 1,
        reactions: [{ emoji: '🎉', count: 4 }],
      },
      {
        type: 'edit',
        chat_ref: FIXTURE.releaseCrew.ref,
        message_id: FIXTURE.pinnedMessageId,
        new_text: 'Checklist moved to the wiki',
        edit_date: new Date().toISOString(),
      },
      // A frame for another chat is not shown here.
      {
        type: 'new_message',
        chat_ref: FIXTURE.anna.ref,
        message: { ...base, id: base.id + 2, text: 'Not for this chat' },
      },
    ];
    for (const frame of frames) sockets[0]?.send(JSON.stringify(frame));
    const fresh = page.locator(`[data-message="${base.id + 1}"]`);
    await fresh.getByText('Tag is out, see you at the party').waitFor();
    await fresh.getByRole('list', { name: 'Reactions' }).getByText('4').waitFor();
    await expect(page.getByText('Not for this chat').count()).resolves.toBe(0);

    // The connection drops: the page says so, connects again and subscribes again.
    sockets[0]?.close({ code: 1011, reason: 'restart' });
    await page.getByTestId('live-state').filter({ hasText: 'Reconnecting' }).waitFor();
    await page.getByTestId('live-state').filter({ hasText: 'Live' }).waitFor();
    expect(sockets.length).toBe(2);
    expect(received.filter((m) => m.action === 'subscribe').length).toBe(2);

    // A revoked session (4001) stops the reconnecting.
    sockets[1]?.close({ code: 4001, reason: 'Session revoked' });
    await page.getByTestId('live-state').filter({ hasText: 'Session ended' }).waitFor();
    expect(policyViolations(errors)).toEqual([]);
    await context.close();
  });
});
