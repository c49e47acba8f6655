/**
 * The fuel benchmarks' synthetic data: a Spain-sized country of stations (60 % clustered around ten
 * cities, 40 % spread evenly; 10 % EV chargers; B7 and E5 prices for every fuel station), and a 2,000-point
 * line of about 1,000 km across it. Seeded, so every run and backend gets the same data.
 */
import { seededRandom } from '../../src/common/seeded-random';
import { destination, intermediate } from '../../src/fuel/geo/sphere';
import type { BBox, LonLat, PriceInput, StationInput } from '../../src/fuel/store/store';

export const SPAIN: BBox = [-9.4, 36.0, 3.4, 43.8];
const CITIES: [LonLat, number][] = [
  [[-3.7038, 40.4168], 30],
  [[2.1686, 41.3874], 22],
  [[-0.3763, 39.4699], 12],
  [[-5.9845, 37.3891], 10],
  [[-0.8891, 41.6488], 6],
  [[-4.4214, 36.7213], 7],
  [[-2.935, 43.263], 6],
  [[-4.7245, 41.6523], 4],
  [[-1.1307, 37.9922], 4],
  [[-8.4115, 43.3623], 4],
];

/** The benchmarks' seeded generator (the same numbers on every run). */
export const random = seededRandom;

export function dataset(count: number): { stations: StationInput[]; prices: PriceInput[] } {
  const next = random(42);
  const totalWeight = CITIES.reduce((s, [, w]) => s + w, 0);
  const stations: StationInput[] = [];
  const prices: PriceInput[] = [];
  for (let i = 0; i < count; i++) {
    let at: LonLat;
    if (next() < 0.6) {
      let pick = next() * totalWeight;
      let city = CITIES[0] as [LonLat, number];
      for (const candidate of CITIES) {
        city = candidate;
        pick -= candidate[1];
        if (pick < 0) break;
      }
      at = destination(city[0], next() * 360, Math.sqrt(next()) * 40);
    } else {
      at = [SPAIN[0] + next() * (SPAIN[2] - SPAIN[0]), SPAIN[1] + next() * (SPAIN[3] - SPAIN[1])];
    }
    const ev = next() < 0.1;
    const externalId = `b${i}`;
    stations.push({
      externalId,
      country: 'ES',
      type: ev ? 'ev_charger' : 'fuel',
      name: `Station ${i}`,
      brand: ev ? 'Charger' : 'Brand',
      address: `Street ${i}`,
      city: 'Town',
      lon: at[0],
      lat: at[1],
      powerKw: ev ? 50 : null,
      source: ev ? 'bench-ev' : 'bench',
    });
    if (!ev) {
      prices.push({ externalId, country: 'ES', fuel: 'B7', price: 1.3 + next() * 0.3, currency: 'EUR' });
      prices.push({ externalId, country: 'ES', fuel: 'E5', price: 1.45 + next() * 0.3, currency: 'EUR' });
    }
  }
  return { stations, prices };
}

/** About 1,000 km from Cádiz to Girona through Madrid and Zaragoza, as 2,000 points with small wiggles. */
export function longLine(): LonLat[] {
  const stops: LonLat[] = [
    [-6.2886, 36.527],
    [-5.9845, 37.3891],
    [-3.7038, 40.4168],
    [-0.8891, 41.6488],
    [2.8214, 41.9794],
  ];
  const line: LonLat[] = [];
  const perLeg = Math.ceil(2000 / (stops.length - 1));
  for (let s = 0; s < stops.length - 1; s++) {
    for (let k = 0; k < perLeg && line.length < 1999; k++) {
      const [lon, lat] = intermediate(stops[s] as LonLat, stops[s + 1] as LonLat, k / perLeg);
      line.push([lon, lat + Math.sin(line.length / 7) * 0.004]);
    }
  }
  line.push(stops.at(-1) as LonLat);
  return line;
}
