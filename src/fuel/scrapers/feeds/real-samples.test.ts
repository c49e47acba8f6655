/** The scrapers on payloads the real feeds wrote (fixtures/real/PROVENANCE.txt): values, not only counts. */
import { describe, expect, it } from 'vitest';
import { decodeText } from '../http';
import { readWhole, testContext } from '../testing/context';
import { realSample, startFakeFeeds } from '../testing/fake-feeds';
import type { RawPrice } from '../types';
import { parseRegister } from './bnetza';
import { italianFuel, parseItaly } from './italy';
import { parseSpain, spainScraper } from './spain';

const pricesOf = (prices: RawPrice[], id: string) =>
  prices
    .filter((p) => p.externalId === id)
    .map((p) => `${p.fuel}=${p.price}`)
    .sort();

describe('Italy: the ministry files of 2026-08-21 (23,973 stations)', () => {
  const { stations, prices } = parseItaly(
    decodeText(realSample('it-anagrafica_impianti_attivi.csv.gz')),
    decodeText(realSample('it-prezzo_alle_8.csv.gz')),
  );

  it('reads every registry row with a position, whichever free-text column holds a `|`', () => {
    // 23,973 rows; three (60502, 60116, 57660) have empty coordinates.
    expect(stations).toHaveLength(23_970);
    expect(stations.find((s) => s.externalId === '60502')).toBeUndefined();
    expect(stations.filter((s) => s.brand?.includes('prezzibenzina'))).toEqual([]);
    expect(stations.filter((s) => s.city.includes('prezzibenzina') || s.address.includes('|'))).toEqual([]);
    // `|` in the name only.
    expect(stations.find((s) => s.externalId === '40820')).toMatchObject({
      name: 'STOIL SIMPLE | gestori.prezzibenzina.it',
      brand: null,
      city: 'ALESSANDRIA',
      lat: 44.91704718250436,
      lon: 8.70067298412323,
    });
    // `|` in the operator and in the name.
    expect(stations.find((s) => s.externalId === '54386')).toMatchObject({
      name: 'PRADELLI - MONTEOMBRARO | gestori.prezzibenzina.it',
      brand: null,
      address: 'Via dei Martiri 255 41059',
      city: 'ZOCCA',
      lat: 44.37912317059676,
      lon: 11.004677838023897,
    });
    expect(stations.find((s) => s.externalId === '35553')).toMatchObject({
      brand: 'Esso',
      city: 'TRENTOLA-DUCENTA',
    });
  });

  it('files every HVO product under HVO, never as diesel', () => {
    // Gasolio 2.189 / 2.069 and Gasolio HVO 2.139 / 2.019 (attended / self): diesel is the diesel price.
    expect(pricesOf(prices, '18500').filter((p) => !p.startsWith('E5'))).toEqual([
      'B7=2.069',
      'B7=2.189',
      'HVO=2.019',
      'HVO=2.139',
    ]);
    expect(pricesOf(prices, '22116')).toEqual(['B7=2.099', 'E5=2.013', 'HVO=2.089', 'LPG=0.849']);
    expect(pricesOf(prices, '3493').filter((p) => /^(B7|HVO)=/.test(p))).toEqual([
      'B7=2.169',
      'B7=2.369',
      'HVO=2.169',
      'HVO=2.369',
    ]);
    const hvoStations = new Set(prices.filter((p) => p.fuel === 'HVO').map((p) => p.externalId));
    // 2,591 stations list an HVO product; at two of them it was last priced more than a year before.
    expect(hvoStations.size).toBe(2_589);
  });

  it('keeps the products a fifth of the prices are for: LPG, methane, LNG, premium grades', () => {
    const count = (fuel: string) => prices.filter((p) => p.fuel === fuel).length;
    // 4,701 GPL rows, one of them for a station the registry does not list, 7 last priced more than a
    // year before the extraction (the oldest in 2020, at 0.549) and 7 over a month before the station's
    // newest GPL price.
    expect(count('LPG')).toBe(4_700 - 7 - 7);
    expect(count('CNG')).toBe(1_704);
    expect(count('LNG')).toBe(193);
  });

  it('never takes a product the station stopped selling for its current price', () => {
    // 6391 lists "Gasolio artico" at 1.309 from 2016 beside its "Gasolio" at 2.159 of this week; 19989
    // "Gasolio Gelo" at 1.305 from 2016. Either would have been Italy's cheapest diesel.
    expect(pricesOf(prices, '6391')).toEqual(['B7=2.159', 'E5=2.039']);
    expect(pricesOf(prices, '19989')).toEqual(['B7=2.159', 'B7=2.159', 'E5=2.019', 'E5=2.019']);
    const diesel = prices.filter((p) => p.fuel === 'B7').map((p) => p.price);
    expect(Math.min(...diesel)).toBeGreaterThan(1.4);
  });

  it('gives every product name in the file a code', () => {
    const names = new Set(
      decodeText(realSample('it-prezzo_alle_8.csv.gz'))
        .split('\n')
        .slice(2)
        .map((line) => line.split('|')[1] ?? '')
        .filter((name) => name !== ''),
    );
    expect(names.size).toBe(59);
    expect([...names].filter((name) => italianFuel(name) === null)).toEqual([]);
    expect(italianFuel('V-Power')).toBe('E5_PREMIUM');
    expect(italianFuel('V-Power Diesel')).toBe('B7_PREMIUM');
    expect(italianFuel('HiQ Perform B100 Ottani')).toBe('E5_98');
    expect(italianFuel('F-101')).toBe('E5_98');
    expect(italianFuel('Verde speciale')).toBe('E5_PREMIUM');
    expect(italianFuel('HVO Energy Diesel')).toBe('HVO');
  });
});

describe('Spain: the ministry answer for Alcalá de Henares (30 stations)', () => {
  const { stations, prices } = parseSpain(
    JSON.parse(decodeText(realSample('es-alcala-filtro-municipio.json.gz'))),
  );

  it('reads the same records from the answer as it arrives, over HTTP, as from the whole text', async () => {
    const fake = await startFakeFeeds();
    try {
      fake.route('/es', {
        body: realSample('es-alcala-filtro-municipio.json.gz'),
        headers: { 'content-type': 'application/json' },
      });
      const read = await spainScraper(`${fake.url}/es`).fetch(testContext()).then(readWhole);
      expect(read).toEqual({ stations, prices, parts: 1 });
      expect(fake.requests).toHaveLength(1);
    } finally {
      await fake.close();
    }
  });

  it('reads every station with its decimal-comma position', () => {
    expect(stations).toHaveLength(30);
    expect(stations[0]).toMatchObject({ address: 'CALLE MEJICO, 17', lat: 40.49825, lon: -3.390139 });
  });

  it('maps every product it publishes, renewable petrol included', () => {
    const count = (fuel: string) => prices.filter((p) => p.fuel === fuel).length;
    expect(count('B7')).toBe(30);
    expect(count('E5')).toBe(30);
    expect(count('B7_PREMIUM')).toBe(17);
    expect(count('E5_98')).toBe(15);
    expect(count('ADBLUE')).toBe(7);
    expect(count('HVO')).toBe(7);
    expect(count('E5_PREMIUM')).toBe(7);
    expect(count('LPG')).toBe(6);
    expect(count('E5_RENEWABLE')).toBe(1);
    expect(prices).toHaveLength(30 + 30 + 17 + 15 + 7 + 7 + 7 + 6 + 1);
  });
});

describe('BNetzA: the 2022 register rows for Köln (older layout, UTF-8 with BOM, CRLF)', () => {
  const { result, stats } = parseRegister(decodeText(realSample('bnetza-koeln-2022.csv')));

  it('reads the older layout (no preamble, no Status, P1 [kW] …) after a byte order mark', () => {
    expect(stats).toMatchObject({ rows: 292, merged: 89, notOperational: 0, outOfBounds: 0, malformed: 0 });
    expect(result.stations).toHaveLength(203);
    expect(result.stations.find((s) => s.externalId === 'bnetza-50.93742_6.97069')).toMatchObject({
      brand: 'LANXESS Deutschland GmbH',
      address: 'Kennedyplatz 1, 50569',
      city: 'Köln',
      type: 'ev_charger',
      powerKw: 22,
    });
  });

  it('gives each station its highest single-connector power, not the device total', () => {
    const powers: Record<string, number> = {};
    for (const station of result.stations) {
      const key = String(station.powerKw);
      powers[key] = (powers[key] ?? 0) + 1;
    }
    // Two 22 kW connectors make a 44 kW device: no station reads 44.
    expect(powers).toEqual({
      '22': 162,
      '11': 14,
      '50': 13,
      '150': 6,
      '20': 4,
      '3.5': 2,
      '300': 1,
      '100': 1,
    });
  });

  it('reads the same rows with or without the byte order mark, as bytes or as text', () => {
    const bytes = realSample('bnetza-koeln-2022.csv');
    const withoutBom = parseRegister(decodeText(bytes.subarray(3)));
    const textWithBom = parseRegister(bytes.toString('utf8'));
    expect(withoutBom.result.stations).toEqual(result.stations);
    expect(textWithBom.result.stations).toEqual(result.stations);
  });
});
