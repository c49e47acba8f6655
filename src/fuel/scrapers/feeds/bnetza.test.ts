import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeText } from '../http';
import { testContext } from '../testing/context';
import { type FakeFeeds, fixture, startFakeFeeds } from '../testing/fake-feeds';
import { bnetzaScraper, parseRegister } from './bnetza';

const latin1 = () => fixture('bnetza-ladesaeulenregister.csv');

describe('German charger register (official CSV)', () => {
  it('finds the header after the preamble, reads Latin-1, quoted ";" and line breaks', () => {
    const { result, stats } = parseRegister(decodeText(latin1()));
    expect(stats).toEqual({ rows: 8, merged: 1, notOperational: 1, outOfBounds: 1, malformed: 1 });
    const munich = result.stations.find((s) => s.city === 'München');
    expect(munich).toMatchObject({
      externalId: 'bnetza-48.13973_11.58214',
      brand: 'SWM',
      address: 'Maximilianstraße 35, 80539',
      powerKw: 11,
      type: 'ev_charger',
    });
  });

  it('merges devices at one position, keeping the highest plausible power', () => {
    const { result } = parseRegister(decodeText(latin1()));
    const alexa = result.stations.find((s) => s.city === 'Berlin');
    expect(alexa?.externalId).toMatch(/^bnetza-52\.52192_13\.4132[12]$/);
    expect(alexa).toMatchObject({ name: 'Parkhaus Alexa', brand: 'Allego', powerKw: 150, lat: 52.521918 });
    expect(result.stations.find((s) => s.city === 'Stuttgart')?.powerKw).toBe(50);
  });

  it('keeps only "In Betrieb", swaps exchanged coordinates, drops foreign and malformed ones', () => {
    const { result } = parseRegister(decodeText(latin1()));
    const cities = result.stations.map((s) => s.city).sort();
    expect(cities).toEqual(['Berlin', 'Hamburg', 'München', 'Stuttgart']);
    expect(result.stations.find((s) => s.city === 'Hamburg')).toMatchObject({
      lat: 53.553412,
      lon: 9.993682,
      brand: 'Hamburger Energiewerke GmbH',
      name: 'Hamburger Energiewerke GmbH Jungfernstieg 7',
    });
  });

  it('reads a UTF-8 file with a byte order mark the same way', () => {
    const utf8 = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(latin1().toString('latin1'), 'utf8'),
    ]);
    expect(parseRegister(decodeText(utf8)).result).toEqual(parseRegister(decodeText(latin1())).result);
  });

  it('fails, writing nothing, when a needed column was renamed', () => {
    const renamed = decodeText(latin1()).replace(';Breitengrad;', ';Latitude;');
    expect(() => parseRegister(renamed)).toThrow('no header row');
    const noLon = decodeText(latin1()).replace(';Längengrad;', ';Laenge;');
    expect(() => parseRegister(noLon)).toThrow('column "Längengrad" not found');
  });

  describe('over HTTP', () => {
    let fake: FakeFeeds;
    beforeAll(async () => {
      fake = await startFakeFeeds();
      fake.route('/register.csv', { body: latin1(), headers: { 'content-type': 'text/csv' } });
    });
    afterAll(() => fake.close());

    it('downloads the file and logs what it read', async () => {
      const ctx = testContext();
      const { stations } = await bnetzaScraper({ url: `${fake.url}/register.csv`, minStations: 10 }).fetch(
        ctx,
      );
      expect(stations).toHaveLength(4);
      expect(ctx.log.lines).toEqual([
        '[bnetza] DE: 8 rows → 4 stations (merged 1, skipped 1 not operational, 1 out of bounds, 1 malformed)',
      ]);
    });
  });
});
