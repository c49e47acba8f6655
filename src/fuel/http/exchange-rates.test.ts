import { afterEach, describe, expect, it } from 'vitest';
import { resettingPort } from '../../common/testing/ports';
import { realSample } from '../scrapers/testing/fake-feeds';
import { ecbXml, SAMPLE_ECB_RATES } from '../testing/fakes/ecb';
import { readJson } from '../testing/json';
import { startTestFuel, type TestFuel } from '../testing/server';
import { FIXED_RATES, parseEcbXml } from '../upstreams/exchange-rates';

const DAY = 24 * 60 * 60 * 1000;

describe('parseEcbXml', () => {
  it('reads the date and rates, adds EUR and the fixed rates the feed lacks, keeps published ones', () => {
    const { date, rates } = parseEcbXml(ecbXml('2026-05-11', { USD: 1.1312, ISK: 143.9 }));
    expect(date).toBe('2026-05-11');
    expect(rates).toEqual({ ...FIXED_RATES, EUR: 1, USD: 1.1312, ISK: 143.9 });
  });

  it('reads the real daily file: its one day and 30 currencies', () => {
    const { date, rates } = parseEcbXml(realSample('ecb-eurofxref-daily.xml').toString('utf8'));
    expect(date).toBe('2025-05-09');
    expect(rates.USD).toBe(1.1252);
    expect(rates.JPY).toBe(163.36);
    // Published rates win over the fixed fallbacks.
    expect(rates.ISK).toBe(146.9);
    expect(Object.keys(rates)).toHaveLength(1 + 30 + Object.keys(FIXED_RATES).length - 1);
  });

  it('takes the newest day of the real 90-day file (64 days), with that day’s rates', () => {
    const { date, rates } = parseEcbXml(realSample('ecb-eurofxref-hist-90d.xml').toString('utf8'));
    expect(date).toBe('2017-03-03');
    // 1.0702 is the oldest day's (2016-12-05) dollar; 1.0565 the newest's.
    expect(rates.USD).toBe(1.0565);
    expect(rates.GBP).toBe(0.86355);
    expect(rates.CHF).toBe(1.0675);
    expect(Object.keys(rates).filter((code) => !(code in FIXED_RATES) && code !== 'EUR')).toHaveLength(31);
  });

  it('takes the newest day whatever the order of the days', () => {
    const days = [ecbXml('2026-05-08', { USD: 1.1 }), ecbXml('2026-05-11', { USD: 1.2 })]
      .map((xml) => /<Cube time='[\s\S]*?<\/Cube>/.exec(xml)?.[0])
      .join('');
    const { date, rates } = parseEcbXml(`<Envelope><Cube>${days}</Cube></Envelope>`);
    expect(date).toBe('2026-05-11');
    expect(rates.USD).toBe(1.2);
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

  it('answers 502 when the connection to the feed fails and no copy exists', async () => {
    const upstream = await resettingPort();
    try {
      fuel = await startTestFuel({ env: { APP_EXCHANGE_RATES_URL: `${upstream.url}/eurofxref-daily.xml` } });
      const res = await rates();
      expect(res.status).toBe(502);
      expect(await readJson(res)).toEqual({ error: 'Failed to fetch exchange rates' });
    } finally {
      await upstream.close();
    }
  });

  it('asks the feed once for requests that arrive together', async () => {
    fuel = await startTestFuel();
    const answers = await Promise.all([rates(), rates(), rates()]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(fuel.ecb.requests).toBe(1);
  });
});
