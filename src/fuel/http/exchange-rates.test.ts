import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../common/testing/ports';
import { FIXED_RATES, parseEcbXml } from '../domain/exchange-rates';
import { ecbXml, SAMPLE_ECB_RATES } from '../testing/fake-upstreams';
import { readJson } from '../testing/json';
import { startTestFuel, type TestFuel } from '../testing/server';

const DAY = 24 * 60 * 60 * 1000;

describe('parseEcbXml', () => {
  it('reads the date and rates, adds EUR and the fixed rates the feed lacks, keeps published ones', () => {
    const { date, rates } = parseEcbXml(ecbXml('2026-05-11', { USD: 1.1312, ISK: 143.9 }));
    expect(date).toBe('2026-05-11');
    expect(rates).toEqual({ ...FIXED_RATES, EUR: 1, USD: 1.1312, ISK: 143.9 });
  });

  it('refuses a document without rates', () => {
    expect(() => parseEcbXml('<html>maintenance</html>')).toThrow();
    expect(() => parseEcbXml(ecbXml('2026-05-11', {}))).toThrow();
  });
});

describe('GET /api/exchange-rates', () => {
  let fuel: TestFuel;
  afterEach(async () => {
    await fuel.close();
  });

  const rates = () => fetch(`${fuel.url}/api/exchange-rates`);

  it('serves the feed with fixed extras and keeps it 24 hours without asking again', async () => {
    fuel = await startTestFuel();
    const res = await rates();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, s-maxage=3600, stale-while-revalidate=86400');
    const body = await readJson(res);
    expect(body).toEqual({
      base: 'EUR',
      date: '2026-05-11',
      rates: {
        EUR: 1,
        ...SAMPLE_ECB_RATES,
        BAM: 1.95583,
        MKD: 61.5,
        RSD: 117,
        ARS: 1200,
        MDL: 19.5,
        TWD: 36,
      },
    });
    expect(body.rates.ISK).toBe(SAMPLE_ECB_RATES.ISK);
    fuel.ecb.date = '2026-05-12';
    fuel.advance(DAY - 1000);
    expect((await readJson(await rates())).date).toBe('2026-05-11');
    expect(fuel.ecb.requests).toBe(1);
    fuel.advance(1000);
    expect((await readJson(await rates())).date).toBe('2026-05-12');
    expect(fuel.ecb.requests).toBe(2);
  });

  it.each(['error', 'garbage', 'hang'] as const)(
    'serves the old copy marked stale when a refresh fails (%s)',
    async (mode) => {
      fuel = await startTestFuel();
      await rates();
      fuel.ecb.mode = mode;
      fuel.advance(DAY);
      const res = await rates();
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, s-maxage=60');
      const body = await readJson(res);
      expect(body).toMatchObject({ base: 'EUR', date: '2026-05-11', stale: true });
      fuel.ecb.mode = 'ok';
      const recovered = await rates();
      expect(await readJson(recovered)).not.toHaveProperty('stale');
    },
  );

  it('answers 502 when the first fetch fails', async () => {
    fuel = await startTestFuel();
    fuel.ecb.mode = 'error';
    const res = await rates();
    expect(res.status).toBe(502);
    expect(await readJson(res)).toEqual({ error: 'Failed to fetch exchange rates' });
  });

  it('answers 502 when the feed refuses connections and no copy exists', async () => {
    const port = await freePort();
    fuel = await startTestFuel({
      env: { APP_EXCHANGE_RATES_URL: `http://127.0.0.1:${port}/eurofxref-daily.xml` },
    });
    const res = await rates();
    expect(res.status).toBe(502);
    expect(await readJson(res)).toEqual({ error: 'Failed to fetch exchange rates' });
  });

  it('asks the feed once for requests that arrive together', async () => {
    fuel = await startTestFuel();
    const answers = await Promise.all([rates(), rates(), rates()]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(fuel.ecb.requests).toBe(1);
  });
});
