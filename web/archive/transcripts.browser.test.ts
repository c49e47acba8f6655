/**
 * Transcripts in the archive viewer, in Chromium against the real viewer with transcription on and a fake
 * transcription server: a voice note shows its transcript; a video without one gets a request button,
 * the request is queued, sent, and the server's signed callback makes the text appear in the open chat
 * (through the `transcript` frame of the live socket).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  FIXTURE,
  login,
  MASTER,
  PASSWORD_ENV,
  startTestViewer,
  type TestViewer,
} from '../../src/archive/http/test-viewer';
import {
  type FakeTranscriptionServer,
  startFakeTranscriptionServer,
} from '../../src/archive/live/fake-transcription-server';
import { launchBrowser, openPage, policyViolations } from '../testing/browser';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const RC = FIXTURE.releaseCrew;
const VIDEO_MESSAGE = 4140;

let viewer: TestViewer;
let server: FakeTranscriptionServer;
let browser: Browser;

beforeAll(async () => {
  server = await startFakeTranscriptionServer(SECRET);
  viewer = await startTestViewer({
    ...PASSWORD_ENV,
    TRANSCRIPTION_ENABLED: 'true',
    TRANSCRIPTION_URL: server.url,
    TRANSCRIPTION_API_KEY: 'transcribe-key',
    TRANSCRIPTION_WEBHOOK_SECRET: SECRET,
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  await server?.close();
});

describe('transcripts in the archive viewer', () => {
  it('shows a voice note’s transcript, and requests one that appears when the server calls back', async () => {
    const cookie = await login(viewer.url, MASTER.username, MASTER.password);
    const voice = await call(viewer.url, `/api/chats/${RC.ref}/media/${FIXTURE.voiceMediaKey}/transcripts`, {
      cookie,
    });
    const stored = (voice.body as { status: string; text: string | null }[]).find((t) => t.status === 'done');
    expect(stored?.text).toBeTruthy();

    const { page, errors, context } = await openPage(browser);
    await page.goto(`${viewer.url}/`);
    await page.getByLabel('User name').fill(MASTER.username);
    await page.getByLabel('Password').fill(MASTER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Signed in (the chat list shows) before the chat is opened: a route changed while the sign-in is
    // still on its way is replaced by the page it lands on.
    await page.getByRole('list', { name: 'Chats' }).waitFor();
    await page.goto(`${viewer.url}/#/chat/${RC.ref}?message=${FIXTURE.voiceMessageId}`);
    await page
      .locator(`[data-message="${FIXTURE.voiceMessageId}"] .transcript blockquote`)
      .getByText(String(stored?.text))
      .waitFor();
    await page.getByTestId('live-state').filter({ hasText: 'Live' }).waitFor();

    await page.goto(`${viewer.url}/#/chat/${RC.ref}?message=${VIDEO_MESSAGE}`);
    const video = page.locator(`[data-message="${VIDEO_MESSAGE}"]`);
    await video.getByRole('button', { name: 'Request a transcript' }).click();
    await video.getByText('Transcript queued.').waitFor();
    await page.getByTestId('live-state').filter({ hasText: 'Live' }).waitFor();

    // The sender (run after each backup) submits the file; the server's signed callback completes it.
    expect(await viewer.wiring.live.transcription.sendQueued()).toEqual({ sent: 1, failed: 0, left: 0 });
    const job = server.jobs.at(-1);
    expect(job).toMatchObject({ contentType: 'video/mp4', authorization: 'Bearer transcribe-key' });
    const outcome = {
      type: 'job.completed',
      timestamp: new Date().toISOString(),
      data: { job_id: job?.id, status: 'done', text: 'Rehearsal starts at seven.', language: 'en' },
    };
    const status = await server.complete(job as never, outcome, {
      id: 'msg_browser_1',
      url: `${viewer.url}/api/transcriptions/callback`,
    });
    expect(status).toBe(204);
    await video.locator('.transcript blockquote').getByText('Rehearsal starts at seven.').waitFor();
    await expect(video.getByRole('button', { name: 'Request a transcript' }).count()).resolves.toBe(0);
    await page.screenshot({ path: path.join(os.tmpdir(), 'archive-transcript.png') });
    expect(policyViolations(errors)).toEqual([]);
    await context.close();
  });
});
