/**
 * Low 8: share-token logins answer as the upstream viewer does. A token padded with blanks logs in; a
 * malformed one is an unknown token (401 `Invalid or expired token`, audited as `token_auth_failed`),
 * which the upstream page knows how to show, not a 400 it shows as "Unexpected error".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  FIXTURE,
  login,
  MASTER,
  PASSWORD_ENV,
  startTestViewer,
  type TestViewer,
} from '../src/archive/http/test-viewer';

describe('POST /auth/token', () => {
  let viewer: TestViewer;
  let master: string;
  let token: string;
  beforeAll(async () => {
    viewer = await startTestViewer(PASSWORD_ENV);
    master = await login(viewer.url, MASTER.username, MASTER.password);
    const created = await call(viewer.url, '/api/admin/tokens', {
      cookie: master,
      body: { label: 'padded', allowed_chat_refs: [FIXTURE.anna.ref] },
    });
    token = created.body.token;
  });
  afterAll(() => viewer.close());

  const failures = async () =>
    (await call(viewer.url, '/api/admin/audit?limit=500', { cookie: master })).body.logs.filter(
      (l: { action: string }) => l.action === 'token_auth_failed',
    ).length;

  it('logs in with a token padded with blanks', async () => {
    for (const padded of [`  ${token}  `, `\t${token.toUpperCase()}\n`]) {
      const res = await call(viewer.url, '/auth/token', { body: { token: padded } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ role: 'token', username: 'token:padded' });
    }
  });

  it('answers 401 for malformed values and audits each', async () => {
    const before = await failures();
    const malformed = ['abc', '', '   ', 'z'.repeat(64), `${token}0`, `${token.slice(0, 63)} x`];
    for (const value of malformed) {
      const res = await call(viewer.url, '/auth/token', { body: { token: value } });
      expect({ value, status: res.status, body: res.body }).toEqual({
        value,
        status: 401,
        body: { detail: 'Invalid or expired token' },
      });
    }
    expect(await failures()).toBe(before + malformed.length);
  });
});
