import { describe, expect, it } from 'vitest';
import { createSubtitlesClient } from '../../generated/subtitles/client';
import { contractCredentials } from '../lib/credentials';
import { itSendsEveryDocumentedExample, useContract } from '../lib/suite';

describe('subtitles contract', () => {
  const ctx = useContract('subtitles');
  const credentials = () => contractCredentials(ctx.doc, ctx.target().kind);

  itSendsEveryDocumentedExample(ctx, () => credentials());

  it('reads the setup status through the typed client', async () => {
    const recorder = ctx.recordingFetch();
    const client = createSubtitlesClient({ baseUrl: ctx.target().url, fetch: recorder.fetch });
    const { data, error } = await client.GET('/Plugins/{plugin}/Setup/Status', {
      params: { path: { plugin: 'Subtitles' } },
      headers: { Authorization: credentials().mediaServerToken ?? '' },
    });
    expect(error).toBeUndefined();
    expect(typeof data?.SetupComplete).toBe('boolean');
    expect(data?.SetupComplete).toBe(Boolean(data?.BinaryFound && data?.ModelFound));
    expect((await ctx.conforms('getSetupStatus', recorder.last())).problems).toEqual([]);
  });

  it('answers 401 with an empty body without credentials', async () => {
    const client = createSubtitlesClient({ baseUrl: ctx.target().url });
    const { response } = await client.GET('/Plugins/{plugin}/Queue', {
      params: { path: { plugin: 'Subtitles' } },
    });
    expect(response.status).toBe(401);
    expect(await response.clone().text()).toBe('');
  });
});
