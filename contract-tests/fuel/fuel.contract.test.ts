import { describe, expect, it } from 'vitest';
import { createFuelClient } from '../../generated/fuel/client';
import { itSendsEveryDocumentedExample, useContract } from '../lib/suite';

describe('fuel contract', () => {
  const ctx = useContract('fuel');

  itSendsEveryDocumentedExample(ctx, () => ({}));

  it('lists stations in a box through the typed client', async () => {
    const recorder = ctx.recordingFetch();
    const client = createFuelClient({ baseUrl: ctx.target().url, fetch: recorder.fetch });
    const { data, error } = await client.GET('/api/stations', {
      params: { query: { bbox: '-3.80,40.35,-3.60,40.50', fuel: 'B7' } },
    });
    expect(error).toBeUndefined();
    expect(data?.type).toBe('FeatureCollection');
    for (const feature of data?.features ?? []) expect(feature.properties.fuelType).toBe('B7');
    expect((await ctx.conforms('listStations', recorder.last())).problems).toEqual([]);
  });

  it('rejects a fuel code outside the list with the documented 400 body', async () => {
    const res = await fetch(`${ctx.target().url}/api/stations?bbox=-3.8,40.3,-3.6,40.5&fuel=DIESEL`);
    expect(res.status).toBe(400);
    const checked = await ctx.conforms('listStations', res);
    expect(checked.problems).toEqual([]);
    expect(checked.body).toMatchObject({ error: expect.any(String) });
  });
});
