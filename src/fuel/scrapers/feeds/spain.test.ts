import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWhole, testContext } from '../testing/context';
import { type FakeFeeds, fixture, json, startFakeFeeds } from '../testing/fake-feeds';
import { parseSpain, spainScraper } from './spain';

const answer = () => JSON.parse(fixture('es-estaciones-terrestres.json').toString('utf8'));

describe('Spain (ministry REST JSON)', () => {
  it('reads decimal commas, keeps each id once and trims the town', () => {
    const { stations, prices } = parseSpain(answer());
    const ids = stations.map((s) => s.externalId);
    expect(ids.filter((id) => id === '4375')).toHaveLength(1);
    const madrid = stations.find((s) => s.externalId === '5122');
    expect(madrid).toMatchObject({
      brand: 'GALP',
      city: 'MADRID',
      lat: 40.437222,
      lon: -3.628333,
      type: 'fuel',
    });
    expect(prices).toContainEqual({ externalId: '4375', fuel: 'B7', price: 1.459, currency: 'EUR' });
    expect(prices).toContainEqual({ externalId: '4375', fuel: 'E5_98', price: 1.699, currency: 'EUR' });
    // Out-of-band values are the pipeline's business: the parser hands them over as published.
    expect(prices).toContainEqual({ externalId: '5122', fuel: 'E5_98', price: 9.999, currency: 'EUR' });
  });

  it('maps gases, hydrogen and AdBlue, and keeps the Canary Islands', () => {
    const { stations, prices } = parseSpain(answer());
    const fuels = prices.filter((p) => p.externalId === '8888').map((p) => p.fuel);
    expect(fuels.sort()).toEqual(['ADBLUE', 'CNG', 'H2', 'LNG', 'LPG']);
    expect(stations.find((s) => s.externalId === '9034')).toMatchObject({ lat: 27.993611, lon: -15.409722 });
  });

  it('skips a station without coordinates and swaps back exchanged ones', () => {
    const { stations } = parseSpain(answer());
    expect(stations.find((s) => s.externalId === '7777')).toBeUndefined();
    expect(stations.find((s) => s.externalId === '6666')).toMatchObject({ lat: 40.416775, lon: -3.70379 });
  });

  it('hands over a station with no price (the pipeline drops it)', () => {
    const { stations, prices } = parseSpain(answer());
    expect(stations.find((s) => s.externalId === '10500')).toBeDefined();
    expect(prices.filter((p) => p.externalId === '10500')).toHaveLength(0);
  });

  it('fails on a non-OK result that arrives with HTTP 200', () => {
    expect(() =>
      parseSpain({ ResultadoConsulta: 'Parametros de entrada incorrectos.', ListaEESSPrecio: [] }),
    ).toThrow('Spanish ministry feed answered "Parametros de entrada incorrectos."');
  });

  describe('over HTTP', () => {
    let fake: FakeFeeds;
    beforeAll(async () => {
      fake = await startFakeFeeds();
    });
    afterAll(() => fake.close());

    it('fetches the whole list in one request', async () => {
      fake.route('/es', {
        body: fixture('es-estaciones-terrestres.json'),
        headers: { 'content-type': 'application/json' },
      });
      const result = await spainScraper(`${fake.url}/es`).fetch(testContext()).then(readWhole);
      expect(result.stations.length).toBe(6);
      expect(result).toEqual({
        ...parseSpain(JSON.parse(fixture('es-estaciones-terrestres.json').toString())),
        parts: 1,
      });
    });

    /** The fixture's answer with `count` stations, each a copy of its first with its own id, in one body. */
    const manyStations = (count: number, extra: Record<string, unknown> = {}) => {
      const answer = JSON.parse(fixture('es-estaciones-terrestres.json').toString('utf8'));
      const [first] = answer.ListaEESSPrecio;
      answer.ListaEESSPrecio = Array.from({ length: count }, (_, i) => ({
        ...first,
        IDEESS: String(1_000_000 + i),
        Rótulo: `ÑANDÚ ${i}`,
      }));
      return { ...answer, ...extra };
    };

    it('hands over a large answer in parts of 5,000 stations, the same records as read whole', async () => {
      const answer = manyStations(12_001);
      fake.route('/es', json(answer));
      const read = await spainScraper(`${fake.url}/es`).fetch(testContext());
      const sizes: number[] = [];
      for await (const part of read.batches) sizes.push(part.stations.length);
      expect(sizes).toEqual([5_000, 5_000, 2_001]);
      const whole = await spainScraper(`${fake.url}/es`).fetch(testContext()).then(readWhole);
      expect(whole).toEqual({ ...parseSpain(answer), parts: 3 });
      expect(whole.stations[12_000]?.name).toBe('ÑANDÚ 12000');
    });

    it('fails on a result other than OK that comes after the list, and on an answer without a list', async () => {
      fake.route('/es', json(manyStations(6_000, { ResultadoConsulta: 'Error interno' })));
      await expect(spainScraper(`${fake.url}/es`).fetch(testContext()).then(readWhole)).rejects.toThrow(
        'Spanish ministry feed answered "Error interno"',
      );
      fake.route('/es', json({ ResultadoConsulta: 'OK' }));
      await expect(spainScraper(`${fake.url}/es`).fetch(testContext()).then(readWhole)).rejects.toThrow(
        'Spanish ministry feed: no station list',
      );
    });

    it('keeps no station of the list once its part is handed over', async () => {
      fake.route('/es', json(manyStations(40_000)));
      // The collector, run by hand so the heap measures what is still held; the flag is only on while
      // the function is taken.
      v8.setFlagsFromString('--expose_gc');
      const collect = vm.runInNewContext('gc') as () => void;
      v8.setFlagsFromString('--no-expose_gc');
      const read = await spainScraper(`${fake.url}/es`).fetch(testContext());
      collect();
      const before = process.memoryUsage().heapUsed;
      let parts = 0;
      let held = 0;
      for await (const _ of read.batches) {
        // 35,000 stations handed over: the list's objects alone would be about 50 MB.
        if (++parts === 7) {
          collect();
          held = process.memoryUsage().heapUsed - before;
        }
      }
      expect(parts).toBe(8);
      expect(held).toBeLessThan(20 * 2 ** 20);
    });

    it('knows a list by a member of the answer named ListaEESSPrecio holding an array, empty or not', async () => {
      const read = async () =>
        (await spainScraper(`${fake.url}/es`).fetch(testContext()).then(readWhole)).stations.length;
      const noList = 'Spanish ministry feed: no station list';
      for (const answer of [
        { Nota: 'ListaEESSPrecio', ResultadoConsulta: 'OK' },
        { Otra: { ListaEESSPrecio: [] }, ResultadoConsulta: 'OK' },
        { ListaEESSPrecio: {}, ResultadoConsulta: 'OK' },
        { ListaEESSPrecio: 'ListaEESSPrecio', Fecha: [], ResultadoConsulta: 'OK' },
      ]) {
        fake.route('/es', json(answer));
        await expect(read(), JSON.stringify(answer)).rejects.toThrow(noList);
        // The same answer read whole says the same.
        expect(() => parseSpain(answer as never), JSON.stringify(answer)).toThrow(noList);
      }
      for (const answer of [
        { ListaEESSPrecio: [], ResultadoConsulta: 'OK' },
        { Nota: 'x', ListaEESSPrecio: [], Otra: [[]], ResultadoConsulta: 'OK' },
      ]) {
        fake.route('/es', json(answer));
        expect(await read()).toBe(0);
      }
      fake.route('/es', json({ Nota: ['ListaEESSPrecio'], ...manyStations(2) }));
      expect(await read()).toBe(2);
      // A name given twice: the last one counts, as JSON.parse keeps it.
      const text = (first: string, second: string) =>
        `{"ListaEESSPrecio": ${first}, "ResultadoConsulta": "OK", "ListaEESSPrecio": ${second}}`;
      for (const [first, second, listed] of [
        ['[]', '{}', false],
        ['{}', '[]', true],
        ['[]', '"x"', false],
        ['null', '[]', true],
      ] as const) {
        const body = text(first, second);
        fake.route('/es', { body: Buffer.from(body), headers: { 'content-type': 'application/json' } });
        if (listed) {
          expect(await read()).toBe(0);
          expect(parseSpain(JSON.parse(body)).stations).toEqual([]);
        } else {
          await expect(read(), body).rejects.toThrow(noList);
          expect(() => parseSpain(JSON.parse(body)), body).toThrow(noList);
        }
      }
    });

    it('reads a Windows-1252 answer by asking again and reading it whole', async () => {
      const text = JSON.stringify(manyStations(3)).replaceAll('ÑANDÚ', 'PEÑA €');
      const bytes = Buffer.from([...text].map((c) => (c === '€' ? 0x80 : c.charCodeAt(0))));
      fake.route('/es', { body: bytes, headers: { 'content-type': 'application/json' } });
      const before = fake.requests.length;
      const result = await spainScraper(`${fake.url}/es`).fetch(testContext()).then(readWhole);
      expect(result.stations.map((s) => s.name)).toEqual(['PEÑA € 0', 'PEÑA € 1', 'PEÑA € 2']);
      expect(fake.requests.length - before).toBe(2);
    });

    it('fails an answer that stops being UTF-8 after it handed over stations', async () => {
      const answer = manyStations(6_000);
      answer.ListaEESSPrecio[5_999].Rótulo = '@@';
      const [before, after] = JSON.stringify(answer).split('@@') as [string, string];
      const bytes = Buffer.concat([Buffer.from(before), Buffer.from([0xd1]), Buffer.from(after)]);
      fake.route('/es', { body: bytes, headers: { 'content-type': 'application/json' } });
      await expect(spainScraper(`${fake.url}/es`).fetch(testContext()).then(readWhole)).rejects.toThrow(
        'Spanish ministry feed: the answer is not UTF-8 past its first 5000 stations',
      );
    });

    it.each([403, 404, 500])('fails on HTTP %d', async (status) => {
      fake.route('/es', { status, body: 'no' });
      await expect(spainScraper(`${fake.url}/es`).fetch(testContext()).then(readWhole)).rejects.toThrow(
        `HTTP ${status} from 127.0.0.1`,
      );
    });

    it('fails when the feed does not answer within the time limit', async () => {
      fake.route('/es', { hang: true });
      await expect(spainScraper(`${fake.url}/es`, 150).fetch(testContext()).then(readWhole)).rejects.toThrow(
        'The operation was aborted due to timeout',
      );
    });

    it('fails on a truncated body', async () => {
      fake.route('/es', { body: fixture('es-estaciones-terrestres.json'), truncate: true });
      await expect(spainScraper(`${fake.url}/es`).fetch(testContext()).then(readWhole)).rejects.toThrow();
    });

    it('reports a refused connection as "fetch failed", with its cause and the host', async () => {
      // A port nothing listens on: one just released.
      const server = createServer().listen(0, '127.0.0.1');
      await once(server, 'listening');
      const { port } = server.address() as AddressInfo;
      server.close();
      await once(server, 'close');
      const failure = spainScraper(`http://127.0.0.1:${port}/es?key=secret`)
        .fetch(testContext())
        .then(readWhole);
      await expect(failure).rejects.toThrow(`fetch failed: ECONNREFUSED from 127.0.0.1:${port}`);
      await expect(failure).rejects.not.toThrow('secret');
    });
  });
});
