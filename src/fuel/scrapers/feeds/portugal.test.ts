import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../testing/context';
import { type FakeFeeds, startFakeFeeds } from '../testing/fake-feeds';
import { FEED_PATHS, portugalHandler } from '../testing/feed-routes';
import { PORTUGAL_FUELS, portugalScraper } from './portugal';

describe('Portugal (directorate price search)', () => {
  let fake: FakeFeeds;
  beforeAll(async () => {
    fake = await startFakeFeeds();
    fake.route(FEED_PATHS.PT, portugalHandler);
  });
  afterAll(() => fake.close());

  const run = (pageSize?: number) =>
    portugalScraper(`${fake.url}${FEED_PATHS.PT}`, pageSize ? { pageSize } : {}).fetch(testContext());

  it('asks once per fuel and merges a station sold under several fuels', async () => {
    fake.requests.length = 0;
    const { stations, prices } = await run();
    const fuelsAsked = new Set(fake.requests.map((r) => r.query.get('idsTiposComb')));
    expect([...fuelsAsked].sort()).toEqual(Object.keys(PORTUGAL_FUELS).sort());
    expect(stations.filter((s) => s.externalId === '65151')).toHaveLength(1);
    expect(prices.filter((p) => p.externalId === '65151').map((p) => [p.fuel, p.price])).toEqual([
      ['B7', 1.679],
      ['E5', 1.859],
    ]);
  });

  it('reads "1,679 €", skips islands, 0,0 positions and empty prices', async () => {
    const { stations, prices } = await run();
    const ids = stations.map((s) => s.externalId);
    expect(ids).not.toContain('71002');
    expect(ids).not.toContain('60010');
    expect(stations.find((s) => s.externalId === '50233')).toMatchObject({ brand: 'GALP', city: 'Porto' });
    expect(prices.filter((p) => p.externalId === '60555').map((p) => p.fuel)).toEqual(['E5']);
  });

  it('follows the pages until the total is read', async () => {
    fake.requests.length = 0;
    const { stations } = await run(2);
    const b7Pages = fake.requests
      .filter((r) => r.query.get('idsTiposComb') === '2101')
      .map((r) => r.query.get('pagina'));
    expect(b7Pages).toEqual(['1', '2', '3']);
    expect(stations.map((s) => s.externalId).sort()).toEqual(['50233', '60555', '65151']);
  });

  it('fails when the directorate reports an error', async () => {
    fake.route('/pt-error', {
      body: JSON.stringify({ status: false, mensagem: 'Erro interno', resultado: null }),
    });
    await expect(portugalScraper(`${fake.url}/pt-error`).fetch(testContext())).rejects.toThrow(
      'Portuguese feed answered "Erro interno"',
    );
  });
});
