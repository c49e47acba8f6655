import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeText } from '../http';
import { testContext } from '../testing/context';
import { type FakeFeeds, fixture, startFakeFeeds } from '../testing/fake-feeds';
import { italianFuel, italyScraper, parseItaly } from './italy';

const registry = () => fixture('it-anagrafica_impianti_attivi.csv').toString('utf8');
const prices = () => fixture('it-prezzo_alle_8.csv').toString('utf8');

describe('Italy (ministry CSV files)', () => {
  it('reads the registry after the extraction line, gluing a name that holds the separator', () => {
    const { stations } = parseItaly(registry(), prices());
    expect(stations.find((s) => s.externalId === '12876')).toMatchObject({
      name: 'BAR | CAFFÈ DEL CORSO',
      brand: null,
      address: 'CORSO GARIBALDI 21',
      city: 'NAPOLI',
    });
    expect(stations.find((s) => s.externalId === '3464')).toMatchObject({
      brand: 'Esso',
      lat: 44.50312,
      lon: 11.29804,
    });
  });

  it('swaps back exchanged coordinates and skips empty ones', () => {
    const { stations } = parseItaly(registry(), prices());
    expect(stations.find((s) => s.externalId === '21034')).toMatchObject({ lat: 41.82913, lon: 12.46822 });
    expect(stations.find((s) => s.externalId === '33001')).toBeUndefined();
  });

  it('maps fuel names exactly, then by keyword, and skips prices of unknown stations', () => {
    const { prices: rows } = parseItaly(registry(), prices());
    const of = (id: string) => rows.filter((p) => p.externalId === id).map((p) => `${p.fuel}=${p.price}`);
    expect(of('5125')).toEqual(['E5=1.989', 'B7_PREMIUM=2.029', 'LPG=0.799', 'CNG=1.459', 'CNG=1.389']);
    expect(of('3464')).toEqual(['E5=1.819', 'E5=1.949', 'B7=1.729', 'B7_PREMIUM=1.839']);
    expect(rows.find((p) => p.externalId === '99999')).toBeUndefined();
    expect(italianFuel('Gasolio Oro Diesel')).toBe('B7_PREMIUM');
    expect(italianFuel('Benzina Plus 98')).toBe('E5_98');
    expect(italianFuel('Idrogeno')).toBeNull();
  });

  it('leaves out prices communicated a year before the extraction, or a month before that fuel’s newest', () => {
    const { prices: rows } = parseItaly(registry(), prices());
    const of = (id: string) => rows.filter((p) => p.externalId === id).map((p) => `${p.fuel}=${p.price}`);
    // 21034's "Gasolio artico" of 2016 (1.309) is not its diesel price; 12876's only diesel is of 2025.
    expect(of('21034')).toEqual(['B7=1.699', 'E5_PREMIUM=2.099']);
    expect(of('12876')).toEqual(['E5=1.789']);
    // 3464's attended diesel of March was replaced by April's self-service one; its two petrol prices
    // of the same morning both stay (the pipeline keeps the lowest).
    expect(of('3464')).toEqual(['E5=1.819', 'E5=1.949', 'B7=1.729', 'B7_PREMIUM=1.839']);
    // Methane and L-GNC, two days apart, are both current.
    expect(of('5125').filter((p) => p.startsWith('CNG'))).toEqual(['CNG=1.459', 'CNG=1.389']);
    // Without the extraction line, nothing is too old: only the newer prices of a fuel decide.
    const undated = parseItaly(registry(), prices().replace(/^Estrazione del .*\n/, '')).prices;
    expect(undated.filter((p) => p.externalId === '12876').map((p) => p.fuel)).toEqual(['E5', 'B7']);
  });

  it('reads the older ";" files and Latin-1 text the same way', () => {
    const older = registry().replaceAll('|', ';').replace('BAR ; CAFFÈ', 'BAR - CAFFÈ');
    const latin1 = decodeText(Buffer.from(older, 'latin1'));
    const { stations } = parseItaly(latin1, prices().replaceAll('|', ';'));
    expect(stations.find((s) => s.externalId === '12876')?.name).toBe('BAR - CAFFÈ DEL CORSO');
    expect(stations).toHaveLength(5);
  });

  it('rejects a file whose header changed', () => {
    expect(() => parseItaly('Estrazione del 2026-04-21\nidImpianto|Nome\n1|x\n', prices())).toThrow(
      'unexpected header',
    );
  });

  describe('over HTTP', () => {
    let fake: FakeFeeds;
    beforeAll(async () => {
      fake = await startFakeFeeds();
    });
    afterAll(() => fake.close());

    it('downloads both files', async () => {
      fake.route('/it/anagrafica_impianti_attivi.csv', {
        body: fixture('it-anagrafica_impianti_attivi.csv'),
      });
      fake.route('/it/prezzo_alle_8.csv', { body: fixture('it-prezzo_alle_8.csv') });
      const { stations, prices: rows } = await italyScraper(`${fake.url}/it/`).fetch(testContext());
      expect(stations).toHaveLength(5);
      expect(rows.length).toBeGreaterThan(10);
    });

    it('fails when the price file is gone', async () => {
      fake.route('/it/prezzo_alle_8.csv', { status: 404, body: 'gone' });
      await expect(italyScraper(`${fake.url}/it`).fetch(testContext())).rejects.toThrow('HTTP 404');
    });
  });
});
