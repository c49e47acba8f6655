import { describe, expect, it } from 'vitest';
import { createArchiveClient } from '../../generated/archive/client';
import { contractCredentials } from '../lib/credentials';
import { itSendsEveryDocumentedExample, useContract } from '../lib/suite';

describe('archive contract', () => {
  const ctx = useContract('archive');
  const credentials = () => contractCredentials(ctx.doc, ctx.target().kind);

  itSendsEveryDocumentedExample(ctx, () => credentials());

  it('lists chats through the typed client with the session cookie', async () => {
    const recorder = ctx.recordingFetch();
    const client = createArchiveClient({ baseUrl: ctx.target().url, fetch: recorder.fetch });
    const { data, error } = await client.GET('/api/chats', {
      params: { query: { limit: 10 } },
      headers: { Cookie: `viewer_auth=${credentials().viewerSession ?? ''}` },
    });
    expect(error).toBeUndefined();
    expect(Array.isArray(data?.chats)).toBe(true);
    expect(data?.has_more).toBe((data?.offset ?? 0) + (data?.chats.length ?? 0) < (data?.total ?? 0));
    expect((await ctx.conforms('listChats', recorder.last())).problems).toEqual([]);
  });

  it('answers the public health check without a login', async () => {
    const client = createArchiveClient({ baseUrl: ctx.target().url });
    const { data, response } = await client.GET('/api/health');
    expect([200, 503]).toContain(response.status);
    if (response.status === 200) expect(data).toMatchObject({ status: 'ok', database: 'connected' });
  });
});
