/**
 * The archive contract against the real viewer, started in this process on a seeded SQLite archive and
 * logged in as the master: every documented example is sent and its answer checked against the document,
 * each with the status expected of it (its success, or the error NOT_SUCCESS names).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createArchiveClient } from '../../generated/archive/client';
import { FIXTURE } from '../../src/archive/demo/dataset';
import { itSendsEveryDocumentedExample, useContract } from '../lib/suite';
import {
  LIVE_PUSH_SECRET,
  liveMasterCookie,
  seedExampleTargets,
  signCallback,
  startLiveArchive,
} from './live-target';

const NOT_FIRST_SUCCESS: Record<string, number> = {
  // Tokens are minted by the server and stored hashed: none can equal the example's plaintext.
  loginWithToken: 401,
  // The examples ask for a transcript of an item with no open request: a new one (201). Asking again
  // answers the open one (200), which transcription.test.ts checks.
  requestMediaTranscript: 201,
  requestStoredMediaTranscript: 201,
};

describe('archive contract, live server', () => {
  let cookie = '';
  const ctx = useContract('archive', async () => {
    const target = await startLiveArchive();
    cookie = await liveMasterCookie(target.url);
    await seedExampleTargets(target.url, cookie);
    return target;
  });
  const client = () => createArchiveClient({ baseUrl: ctx.target().url });
  const auth = () => ({ Cookie: `viewer_auth=${cookie}` });

  // Some examples end the caller's session (end-all without keep_current): log in again.
  afterEach(async () => {
    const { data } = await client().GET('/api/auth/check', { headers: auth() });
    if (!data?.authenticated) cookie = await liveMasterCookie(ctx.target().url);
  });

  itSendsEveryDocumentedExample(
    ctx,
    () => ({ viewerSession: cookie, internalBearer: LIVE_PUSH_SECRET }),
    NOT_FIRST_SUCCESS,
    // The callback is sent as the transcription server sends it: signed, and dated now.
    (op, request) => {
      if (op.operationId === 'receiveTranscriptionCallback')
        signCallback(request.init.headers, String(request.init.body));
    },
  );

  it('pages chats through the typed client with the session cookie', async () => {
    const recorder = ctx.recordingFetch();
    const typed = createArchiveClient({ baseUrl: ctx.target().url, fetch: recorder.fetch });
    const { data, error } = await typed.GET('/api/chats', {
      params: { query: { limit: 4 } },
      headers: auth(),
    });
    expect(error).toBeUndefined();
    expect(data).toMatchObject({ total: 6, limit: 4, offset: 0, has_more: true });
    expect((await ctx.conforms('listChats', recorder.last())).problems).toEqual([]);
  });

  it('serves the fields existing clients read: edits, replies, topic sizes, 0/1 flags, login audit', async () => {
    const url = ctx.target().url;
    // biome-ignore lint/suspicious/noExplicitAny: the answers are checked against the document first.
    const bodyOf = (checked: { body: unknown }) => checked.body as any;
    const get = (path: string) => fetch(`${url}${path}`, { headers: auth() });
    const messages = await ctx.conforms(
      'listMessages',
      await get(`/api/chats/${FIXTURE.releaseCrew.ref}/messages`),
    );
    expect(messages.problems).toEqual([]);
    expect(bodyOf(messages).find((m: { id: number }) => m.id === 4182)).toMatchObject({
      version_count: 1,
      reply_to_sender_name: 'Erik Sandberg',
      reply_to_media_type: null,
    });
    const topics = await ctx.conforms('listTopics', await get(`/api/chats/${FIXTURE.forum.ref}/topics`));
    expect(topics.problems).toEqual([]);
    expect(
      bodyOf(topics).topics.map((t: { id: number; message_count: number }) => [t.id, t.message_count]),
    ).toEqual([
      [12, 3],
      [1, 2],
    ]);
    const send = (path: string, method: string, body: unknown) =>
      fetch(`${url}${path}`, {
        method,
        headers: { ...auth(), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const created = await ctx.conforms(
      'createViewer',
      await send('/api/admin/viewers', 'POST', {
        username: 'bits',
        password: 'bits-password',
        no_download: 1,
      }),
    );
    expect(created.problems).toEqual([]);
    expect(bodyOf(created)).toMatchObject({ is_active: true, no_download: true });
    const updated = await ctx.conforms(
      'updateViewer',
      await send(`/api/admin/viewers/${bodyOf(created).id}`, 'PUT', { password: '', is_active: 0 }),
    );
    expect(updated.problems).toEqual([]);
    expect(updated.body).toMatchObject({ is_active: false, no_download: true });
    const audit = await ctx.conforms('listAuditLog', await get('/api/admin/audit?action=login_'));
    expect(audit.problems).toEqual([]);
    expect(bodyOf(audit).logs.length).toBeGreaterThan(0);
    expect(bodyOf(audit).logs.every((e: { action: string }) => e.action.startsWith('login_'))).toBe(true);
  });

  it('answers the documented errors with {detail}', async () => {
    const cases: [string, string, RequestInit, number][] = [
      ['getChat', '/api/chats/not-a-ref', { headers: auth() }, 404],
      ['listMessages', '/api/chats/k3JZp0aV8s2Q1xWn7bRt4A/messages?limit=501', { headers: auth() }, 400],
      ['getStatus', '/api/status', { headers: { ...auth(), 'X-Viewer-Only': 'true' } }, 403],
      ['listChats', '/api/chats', {}, 401],
      [
        'getMessageByDate',
        '/api/chats/k3JZp0aV8s2Q1xWn7bRt4A/messages/by-date?date=2027-01-01',
        { headers: auth() },
        404,
      ],
      [
        'login',
        '/api/login',
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":"x"}' },
        400,
      ],
    ];
    for (const [operationId, path, init, status] of cases) {
      const checked = await ctx.conforms(operationId, await fetch(`${ctx.target().url}${path}`, init));
      expect(checked.status, path).toBe(status);
      expect(checked.problems, path).toEqual([]);
      expect(checked.body).toEqual({ detail: expect.any(String) });
    }
  });

  it('sends the security headers and the private cache rules', async () => {
    const status = await fetch(`${ctx.target().url}/api/status`, { headers: auth() });
    expect(status.headers.get('cache-control')).toBe('private, no-store');
    expect(status.headers.get('x-content-type-options')).toBe('nosniff');
    expect(status.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(status.headers.get('content-security-policy')).toContain("default-src 'self'");
  });
});
