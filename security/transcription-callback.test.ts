/**
 * High 1: unsigned transcription callbacks. Sent in every spelling of the route with a well-formed body,
 * a callback without a valid Standard Webhooks signature is refused and writes no delivery row; with
 * transcription off the route does not exist, whatever the spelling, and writes nothing either.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_ENV, startTestViewer, type TestViewer } from '../src/archive/http/test-viewer';

const SPELLINGS = [
  '/api/transcriptions/callback',
  '/API/transcriptions/callback',
  '/api/transcriptions/callback/',
  '/api/Transcriptions/Callback',
  '/Api/TRANSCRIPTIONS/callback/',
];

const forged = (id: string, signature?: string) => ({
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    ...(signature !== undefined && { 'webhook-signature': signature }),
  },
  body: JSON.stringify({
    type: 'job.completed',
    data: { job_id: 'job-1', status: 'done', text: 'forged text' },
  }),
});

describe.each([
  [
    'on',
    {
      TRANSCRIPTION_ENABLED: 'true',
      TRANSCRIPTION_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
    },
  ],
  ['off', {}],
])('transcription %s', (state, env) => {
  let viewer: TestViewer;
  beforeAll(async () => {
    viewer = await startTestViewer({ ...PASSWORD_ENV, ...env });
  });
  afterAll(() => viewer.close());

  it.each(SPELLINGS)('refuses an unsigned callback to %s and records nothing', async (path) => {
    for (const signature of [undefined, 'v1,AAAA', `v1,${randomBytes(32).toString('base64')}`]) {
      const id = `msg_${randomBytes(8).toString('hex')}`;
      const res = await fetch(`${viewer.url}${path}`, forged(id, signature));
      const body = await res.json();
      if (state === 'off')
        expect({ status: res.status, body }).toEqual({ status: 404, body: { detail: 'Not Found' } });
      else expect([400, 401]).toContain(res.status);
      // The delivery id is still new: nothing was stored for it.
      expect(await viewer.db.recordWebhookDelivery(id)).toBe(true);
    }
  });
});
