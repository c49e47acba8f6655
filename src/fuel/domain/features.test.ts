import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeatureRuns, featureRunsOf } from '../store/feature-text';
import type { StationRow, StoreBackend } from '../store/store';
import { parseFeatureTexts } from '../testing/json';
import { type OpenedTestStore, stationRows, TEST_BACKENDS } from '../testing/stores';
import { featureTextCollection, stationFeature } from './features';

const row = (overrides: Partial<StationRow> = {}): StationRow => ({
  id: '0d4f8a62-91b7-4c3e-a5d8-6e2b7c1f9a34',
  externalId: '10542',
  country: 'ES',
  type: 'fuel',
  name: 'GALP "Toledo" \\ Ñ \u0001 ☃',
  brand: 'Galp',
  address: 'CALLE DE TOLEDO, 128',
  city: 'MADRID',
  lon: -3.7112,
  lat: 40.405,
  powerKw: null,
  price: 1.479,
  currency: 'EUR',
  reportedAt: new Date('2026-05-12T06:30:12.000Z'),
  ...overrides,
});

describe('a feature written as text', () => {
  it('keeps the text of awkward strings intact in the collection', () => {
    const text = [...featureTextCollection([JSON.stringify(stationFeature(row(), 'B7'))])].join('');
    expect(JSON.parse(text).features[0].properties.name).toBe('GALP "Toledo" \\ Ñ \u0001 ☃');
  });
});

describe('features written as text by the store', () => {
  it.each([0, 1, 499, 500, 501, 1201])('make one valid collection (%i features)', (count) => {
    const texts = Array.from({ length: count }, (_, i) => JSON.stringify({ type: 'Feature', i }));
    const runs = new FeatureRuns(1000, 500);
    for (const text of texts) runs.add(text);
    const result = runs.result();
    expect(result.count).toBe(Math.min(count, 1000));
    expect(result.truncated).toBe(count > 1000);
    expect(JSON.parse([...featureTextCollection(result.runs)].join(''))).toEqual({
      type: 'FeatureCollection',
      features: texts.slice(0, 1000).map((t) => JSON.parse(t)),
    });
    // A run ends with the feature that took it to 500 characters: never longer than that by a feature...
    const longest = Math.max(0, ...texts.map((t) => t.length));
    for (const run of result.runs) expect(run.length).toBeLessThan(500 + longest);
    // ...and none but the last is cut before it.
    for (const run of result.runs.slice(0, -1)) expect(run.length).toBeGreaterThanOrEqual(499);
  });

  it.each([0, 1, 499, 500, 501, 1201])('make the same runs as they are written (%i features)', (count) => {
    const texts = Array.from({ length: count }, (_, i) => JSON.stringify({ type: 'Feature', i }));
    const runs = new FeatureRuns(count, 500);
    for (const text of texts) runs.add(text);
    expect([...featureRunsOf(texts, (text) => text, 500)]).toEqual(runs.result().runs);
  });

  describe.each(Object.keys(TEST_BACKENDS) as StoreBackend[])('on %s', (backend) => {
    let opened: OpenedTestStore;
    beforeAll(async () => {
      opened = await TEST_BACKENDS[backend]();
      const odd = [
        'GALP "Toledo" \\ Ñ',
        'tab\there\nnewline \u0001 \u001f',
        'emoji ⛽ 🚗 </script>',
        "l'Aïgo",
      ];
      await opened.store.upsertStations(
        Array.from({ length: 40 }, (_, i) => ({
          externalId: `x${i}`,
          country: 'ES',
          type: i % 10 === 0 ? 'ev_charger' : i % 10 === 1 ? 'both' : 'fuel',
          name: `${odd[i % odd.length]} ${i}`,
          brand: i % 3 === 0 ? null : (odd[(i + 1) % odd.length] as string),
          address: odd[(i + 2) % odd.length] as string,
          city: odd[(i + 3) % odd.length] as string,
          lon: -3.7 + i * 0.001,
          lat: 40.4 + (i % 7) * 0.0013,
          powerKw: i % 20 === 0 ? 22.5 : i % 10 === 1 ? 150 : null,
          source: 'miteco',
        })),
      );
      await opened.store.replacePrices('miteco', 'ES', [
        ...Array.from({ length: 40 }, (_, i) => ({
          externalId: `x${i}`,
          country: 'ES',
          fuel: 'B7',
          price: 1.3 + i / 997,
          currency: i % 4 === 0 ? 'USD' : 'EUR',
          reportedAt: new Date(Date.UTC(2026, 4, 12, 6, 30, i % 3, i * 7)),
        })),
      ]);
    });
    afterAll(() => opened?.dispose());

    it.each([
      ['B7', 100],
      ['EV', 100],
      ['B7', 5],
      ['E5', 10],
    ] as const)('parse to the features of stationFeature (%s, limit %i)', async (fuel, limit) => {
      const query = { bbox: [-4, 40, -3, 41] as [number, number, number, number], fuel, limit };
      const objects = await stationRows(opened.store).stationsInBox(query);
      const texts = await opened.store.stationFeaturesInBox(query);
      expect(texts.truncated).toBe(objects.truncated);
      expect(parseFeatureTexts(texts)).toEqual(objects.stations.map((row) => stationFeature(row, fuel)));
      expect(texts.count).toBe(objects.stations.length);
      if (fuel === 'B7') expect(texts.count).toBe(Math.min(limit, 40));
    });

    it.each([
      ['B7', 100],
      ['EV', 100],
      ['B7', 7],
    ] as const)(
      'along a line, parse to the features of stationFeature (%s, limit %i)',
      async (fuel, limit) => {
        const query = {
          line: [
            [-3.71, 40.399],
            [-3.65, 40.41],
          ] as [number, number][],
          fuel,
          corridorKm: 2,
          limit,
        };
        const objects = await stationRows(opened.store).stationsAlongLine(query);
        const texts = await opened.store.stationFeaturesAlongLine(query);
        expect(objects.stations.length).toBeGreaterThan(3);
        expect(texts.truncated).toBe(objects.truncated);
        expect(parseFeatureTexts(texts)).toEqual(
          objects.stations.map((row) => stationFeature(row, fuel, { routeFraction: row.routeFraction })),
        );
        expect(texts.count).toBe(objects.stations.length);
      },
    );
  });
});
