/**
 * The contract suite against the real server, started in-process: every documented example is sent and
 * every answer checked against the document, then the statuses the examples cannot provoke.
 */
import { describe, expect, it } from 'vitest';
import { createSubtitlesClient } from '../../generated/subtitles/client';
import { operationsOf } from '../lib/document';
import { buildRequest } from '../lib/exchange';
import { itSendsEveryDocumentedExample, operationById, useContract } from '../lib/suite';
import { type LiveSubtitles, startLiveSubtitles } from './live';

describe('subtitles contract, live server', () => {
  let live: LiveSubtitles;
  const ctx = useContract('subtitles', async () => {
    live = await startLiveSubtitles();
    return live.target;
  });
  const client = 'MediaServer Client="contract", Device="vitest", DeviceId="contract-live", Version="1.0.0"';
  const admin = () => ({
    mediaServerToken: `MediaServer Token="${live.adminKey}"`,
    clientAuthorization: client,
  });
  const access = (level: string) =>
    operationsOf(ctx.doc).filter((op) => (op.operation as { 'x-access'?: string })['x-access'] === level);
  const url = () => ctx.target().url;

  // The examples are sent with an API key, which is no user: the routes that read the caller's own user
  // answer their documented 400, and a user id the example invents its 404. Sent by a signed-in user they
  // answer 200: web-client.test.ts walks that path.
  itSendsEveryDocumentedExample(ctx, () => admin(), {
    getCurrentUser: 400,
    getUserById: 404,
    getDisplayPreferences: 400,
    updateDisplayPreferences: 400,
    getUserViews: 400,
  });

  it('answers every operation that needs credentials, sent without, with a documented, empty 401', async () => {
    for (const op of [...access('admin'), ...access('user')]) {
      const { url: target, init } = buildRequest(ctx.doc, op, url(), {});
      const res = await fetch(target, init);
      expect(`${op.operationId} ${res.status}`).toBe(`${op.operationId} 401`);
      expect((await ctx.conforms(op.operationId, res)).problems).toEqual([]);
    }
  });

  it('answers a non-admin session with a documented 403 on every secured operation', async () => {
    const signIn = await fetch(`${url()}/Users/AuthenticateByName`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', Authorization: client },
      body: JSON.stringify({ Username: 'viewer', Pw: 'viewer password' }),
    });
    const { AccessToken } = (await signIn.json()) as { AccessToken: string };
    for (const op of access('admin')) {
      const { url: target, init } = buildRequest(ctx.doc, op, url(), {
        sessionToken: `MediaServer Token="${AccessToken}"`,
      });
      const res = await fetch(target, init);
      expect(`${op.operationId} ${res.status}`).toBe(`${op.operationId} 403`);
      expect((await ctx.conforms(op.operationId, res)).problems).toEqual([]);
    }
    // Any signed-in user may sign out; afterwards the token is refused with the documented 401.
    const logout = operationById(ctx.doc, 'logoutSession');
    const viewer = { sessionToken: `MediaServer Token="${AccessToken}"` };
    for (const status of [204, 401]) {
      const { url: target, init } = buildRequest(ctx.doc, logout, url(), viewer);
      const res = await fetch(target, init);
      expect(res.status).toBe(status);
      expect((await ctx.conforms('logoutSession', res)).problems).toEqual([]);
    }
  });

  it('answers a sign-in without the client fields with a documented 400', async () => {
    const op = operationById(ctx.doc, 'authenticateUserByName');
    const cases: Record<string, string>[] = [{}, { clientAuthorization: 'MediaServer Client="contract"' }];
    for (const credentials of cases) {
      const { url: target, init } = buildRequest(ctx.doc, op, url(), credentials);
      const res = await fetch(target, init);
      expect(res.status).toBe(400);
      expect((await ctx.conforms('authenticateUserByName', res)).problems).toEqual([]);
    }
  });

  it('answers another plugin segment with a documented 404 on every plugin operation', async () => {
    for (const op of operationsOf(ctx.doc).filter((o) => o.path.startsWith('/Plugins/'))) {
      const { url: target, init } = buildRequest(ctx.doc, op, url(), admin());
      const res = await fetch(target.replace('/Plugins/Subtitles/', '/Plugins/Elsewhere/'), init);
      expect(res.status).toBe(404);
      expect((await ctx.conforms(op.operationId, res)).problems).toEqual([]);
    }
  });

  it('answers bad input with documented 400 problem details', async () => {
    const cases: [string, unknown][] = [
      ['enqueueQueueItem', { path: 'Movies', language: 'english' }],
      ['scanLibrary', { language: 'EN' }],
      ['authenticateUserByName', { Username: 'admin' }],
      ['updateServerConfiguration', { EnableLegacyAuthorization: 'sometimes' }],
    ];
    for (const [operationId, body] of cases) {
      const op = operationById(ctx.doc, operationId);
      const { url: target, init } = buildRequest(ctx.doc, op, url(), admin(), { body });
      const res = await fetch(target, init);
      expect(`${operationId} ${res.status}`).toBe(`${operationId} 400`);
      expect((await ctx.conforms(operationId, res)).problems).toEqual([]);
    }
  });

  it('answers a sign-in with a wrong password with a documented 401', async () => {
    const op = operationById(ctx.doc, 'authenticateUserByName');
    const { url: target, init } = buildRequest(
      ctx.doc,
      op,
      url(),
      { clientAuthorization: client },
      { body: { Username: 'admin', Pw: 'wrong' } },
    );
    const res = await fetch(target, init);
    expect(res.status).toBe(401);
    expect((await ctx.conforms('authenticateUserByName', res)).problems).toEqual([]);
  });

  it('reads the public system information through the typed client, without credentials', async () => {
    const recorder = ctx.recordingFetch();
    const client = createSubtitlesClient({ baseUrl: url(), fetch: recorder.fetch });
    const { data, error } = await client.GET('/System/Info/Public');
    expect(error).toBeUndefined();
    expect(data).toMatchObject({ Version: '10.11.0', ProductName: 'Jellyfin Server' });
    expect((await ctx.conforms('getPublicSystemInfo', recorder.last())).problems).toEqual([]);
  });

  it('reads the three diagnostics through the typed client', async () => {
    const recorder = ctx.recordingFetch();
    const client = createSubtitlesClient({ baseUrl: url(), fetch: recorder.fetch });
    const headers = { Authorization: admin().mediaServerToken };
    const params = { path: { plugin: 'Subtitles' } };

    const status = await client.GET('/Plugins/{plugin}/Setup/Status', { params, headers });
    expect(status.data).toMatchObject({ SetupComplete: true, BinaryFound: true, ModelFound: true });
    expect((await ctx.conforms('getSetupStatus', recorder.last())).problems).toEqual([]);

    const queue = await client.GET('/Plugins/{plugin}/Queue', { params, headers });
    expect(queue.data?.workers).toHaveLength(1);
    expect((await ctx.conforms('getQueue', recorder.last())).problems).toEqual([]);

    const injection = await client.GET('/Plugins/{plugin}/Setup/InjectionStatus', { params, headers });
    expect(injection.data).toMatchObject({
      Level: 'ok',
      Mode: 'direct',
      ScriptTagPresent: true,
      ServedHtmlVerified: 'yes',
    });
    expect((await ctx.conforms('getInjectionStatus', recorder.last())).problems).toEqual([]);
  });
});
