/**
 * The fuel benchmark's stations over Europe (`--region=europe`): each country's share of the stations by
 * its size on the road, 60 % of them around its large cities, their density falling off exponentially
 * with the distance from the middle (the usual model of a city's density, with a scale of CITY_SCALE_KM),
 * 40 % spread over the country's box (boxes are rough: some fall in the sea, as the benchmark does not
 * mind); 10 % EV chargers; B7 and E5 prices in the country's currency at its price level. Seeded, so
 * every run and backend gets the same data.
 */
import { destination } from '../../src/fuel/geo/sphere';
import type { LonLat, PriceInput, StationInput } from '../../src/fuel/store/store';
import { random } from './fuel-data';

/**
 * Stations' density scale around a city centre, in km: an eighth of them within 3.5 km, half within 10 km. The
 * first layout drew the distance as 40 km times the product of two uniform numbers: a density without bound
 * at the middle, which put about 19,000 of 10,000,000 stations into one zoom-14 tile (1.9 km across) of
 * central Madrid. In this one the densest zoom-14 tile at 10,000,000 (central Rome) holds 3,657.
 */
const CITY_SCALE_KM = 6;

/** The layout's version, part of the name of the stations `--reuse` keeps. */
export const EUROPE_LAYOUT = 'v2';

interface Country {
  code: string;
  /** minLon, minLat, maxLon, maxLat */
  box: [number, number, number, number];
  /** Share of Europe's stations (about its count of filling stations). */
  weight: number;
  currency: string;
  /** A litre of diesel in the currency. */
  level: number;
  cities: [LonLat, number][];
}

const COUNTRIES: Country[] = [
  {
    code: 'DE',
    box: [6, 47.3, 15, 55],
    weight: 14.5,
    currency: 'EUR',
    level: 1.7,
    cities: [
      [[13.4, 52.52], 6],
      [[10.0, 53.55], 3],
      [[11.58, 48.14], 3],
      [[6.96, 50.94], 3],
      [[8.68, 50.11], 2],
      [[9.18, 48.78], 2],
      [[6.78, 51.23], 2],
    ],
  },
  {
    code: 'FR',
    box: [-4.8, 42.4, 8.2, 51.1],
    weight: 11,
    currency: 'EUR',
    level: 1.75,
    cities: [
      [[2.35, 48.86], 8],
      [[4.84, 45.76], 2],
      [[5.37, 43.3], 2],
      [[1.44, 43.6], 1],
      [[3.06, 50.63], 1],
      [[-1.55, 47.22], 1],
    ],
  },
  {
    code: 'IT',
    box: [6.6, 37, 18.5, 47.1],
    weight: 21,
    currency: 'EUR',
    level: 1.75,
    cities: [
      [[12.5, 41.9], 4],
      [[9.19, 45.46], 4],
      [[14.27, 40.85], 3],
      [[7.69, 45.07], 2],
      [[11.34, 44.49], 1],
      [[13.36, 38.12], 1],
    ],
  },
  {
    code: 'ES',
    box: [-9.4, 36, 3.4, 43.8],
    weight: 11.5,
    currency: 'EUR',
    level: 1.45,
    cities: [
      [[-3.7, 40.42], 5],
      [[2.17, 41.39], 4],
      [[-0.38, 39.47], 2],
      [[-5.98, 37.39], 2],
      [[-0.89, 41.65], 1],
    ],
  },
  {
    code: 'GB',
    box: [-5.7, 50, 1.8, 58.6],
    weight: 8.5,
    currency: 'GBP',
    level: 1.45,
    cities: [
      [[-0.13, 51.51], 7],
      [[-2.24, 53.48], 2],
      [[-1.9, 52.49], 2],
      [[-4.25, 55.86], 1],
      [[-1.55, 53.8], 1],
    ],
  },
  {
    code: 'PL',
    box: [14.1, 49, 24.1, 54.8],
    weight: 8,
    currency: 'PLN',
    level: 6.3,
    cities: [
      [[21.01, 52.23], 3],
      [[19.94, 50.06], 2],
      [[17.04, 51.11], 1],
      [[16.93, 52.41], 1],
      [[18.65, 54.35], 1],
    ],
  },
  {
    code: 'NL',
    box: [3.4, 51.3, 7.2, 53.5],
    weight: 4,
    currency: 'EUR',
    level: 1.85,
    cities: [
      [[4.9, 52.37], 3],
      [[4.48, 51.92], 2],
      [[5.12, 52.09], 1],
    ],
  },
  {
    code: 'BE',
    box: [2.6, 49.5, 6.4, 51.5],
    weight: 3,
    currency: 'EUR',
    level: 1.8,
    cities: [
      [[4.35, 50.85], 3],
      [[4.4, 51.22], 2],
      [[5.57, 50.63], 1],
    ],
  },
  {
    code: 'AT',
    box: [9.5, 46.4, 17.2, 49],
    weight: 2.6,
    currency: 'EUR',
    level: 1.65,
    cities: [
      [[16.37, 48.21], 4],
      [[15.44, 47.07], 1],
      [[14.29, 48.31], 1],
    ],
  },
  {
    code: 'CH',
    box: [6, 45.8, 10.5, 47.8],
    weight: 3.2,
    currency: 'CHF',
    level: 1.9,
    cities: [
      [[8.54, 47.38], 3],
      [[6.14, 46.2], 2],
      [[7.45, 46.95], 1],
    ],
  },
  {
    code: 'PT',
    box: [-9.5, 37, -6.2, 42.1],
    weight: 3,
    currency: 'EUR',
    level: 1.65,
    cities: [
      [[-9.14, 38.72], 3],
      [[-8.61, 41.15], 2],
    ],
  },
  {
    code: 'CZ',
    box: [12.1, 48.6, 18.9, 51],
    weight: 3.5,
    currency: 'CZK',
    level: 38,
    cities: [
      [[14.42, 50.09], 3],
      [[16.61, 49.2], 1],
      [[18.29, 49.82], 1],
    ],
  },
  {
    code: 'SE',
    box: [11, 55.3, 24, 69],
    weight: 2.5,
    currency: 'SEK',
    level: 18,
    cities: [
      [[18.07, 59.33], 3],
      [[11.97, 57.71], 2],
      [[13, 55.6], 1],
    ],
  },
  {
    code: 'NO',
    box: [5, 58, 31, 71],
    weight: 1.5,
    currency: 'NOK',
    level: 21,
    cities: [
      [[10.75, 59.91], 3],
      [[5.32, 60.39], 1],
    ],
  },
  {
    code: 'DK',
    box: [8, 54.6, 12.7, 57.7],
    weight: 1.8,
    currency: 'DKK',
    level: 13,
    cities: [
      [[12.57, 55.68], 3],
      [[10.2, 56.16], 1],
    ],
  },
  {
    code: 'HU',
    box: [16.1, 45.7, 22.9, 48.6],
    weight: 2,
    currency: 'HUF',
    level: 600,
    cities: [
      [[19.04, 47.5], 4],
      [[21.63, 47.53], 1],
    ],
  },
  {
    code: 'RO',
    box: [20.3, 43.6, 29.7, 48.3],
    weight: 2.3,
    currency: 'RON',
    level: 7.5,
    cities: [
      [[26.1, 44.43], 3],
      [[23.6, 46.77], 1],
      [[27.59, 47.16], 1],
    ],
  },
  {
    code: 'GR',
    box: [20, 35, 26.6, 41.7],
    weight: 3.5,
    currency: 'EUR',
    level: 1.7,
    cities: [
      [[23.73, 37.98], 4],
      [[22.94, 40.64], 2],
    ],
  },
  {
    code: 'IE',
    box: [-10.5, 51.4, -6, 55.4],
    weight: 1.2,
    currency: 'EUR',
    level: 1.75,
    cities: [
      [[-6.26, 53.35], 3],
      [[-8.47, 51.9], 1],
    ],
  },
  {
    code: 'FI',
    box: [21, 60, 31.5, 70],
    weight: 1.5,
    currency: 'EUR',
    level: 1.85,
    cities: [
      [[24.94, 60.17], 3],
      [[23.76, 61.5], 1],
    ],
  },
];

/** One country's share of the stations over Europe, with its prices (replaced on their own). */
export interface EuropeCountry {
  code: string;
  stations: StationInput[];
  prices: PriceInput[];
}

/**
 * `count` stations over Europe, a country at a time: at 10,000,000 stations the whole dataset's objects
 * would take several GB, so the benchmark loads each country and lets it go.
 */
export function* europeCountries(count: number): Generator<EuropeCountry> {
  const next = random(4242);
  const total = COUNTRIES.reduce((sum, c) => sum + c.weight, 0);
  let at = 0;
  for (const country of COUNTRIES) {
    const share = country === COUNTRIES.at(-1) ? count - at : Math.round((count * country.weight) / total);
    const cityWeight = country.cities.reduce((sum, [, w]) => sum + w, 0);
    const stations: StationInput[] = [];
    const list: PriceInput[] = [];
    for (let n = 0; n < share; n++, at++) {
      let position: LonLat;
      if (next() < 0.6) {
        let pick = next() * cityWeight;
        let city = country.cities[0] as [LonLat, number];
        for (const candidate of country.cities) {
          city = candidate;
          pick -= candidate[1];
          if (pick < 0) break;
        }
        // The distance of a density D(r) ~ exp(-r / b) over the plane: a Gamma(2, b) draw.
        position = destination(city[0], next() * 360, -CITY_SCALE_KM * Math.log((1 - next()) * (1 - next())));
      } else {
        const [w, s, e, n2] = country.box;
        position = [w + next() * (e - w), s + next() * (n2 - s)];
      }
      const ev = next() < 0.1;
      const externalId = `e${at}`;
      stations.push({
        externalId,
        country: country.code,
        type: ev ? 'ev_charger' : 'fuel',
        name: `Station ${at}`,
        brand: ev ? 'Charger' : 'Brand',
        address: `Street ${at}`,
        city: 'Town',
        lon: position[0],
        lat: position[1],
        powerKw: ev ? 50 + Math.floor(next() * 300) : null,
        source: ev ? 'bench-ev' : 'bench',
      });
      if (!ev) {
        const spread = country.level * 0.15;
        const value = (level: number) => Math.round((level + next() * spread) * 1000) / 1000;
        list.push({
          externalId,
          country: country.code,
          fuel: 'B7',
          price: value(country.level),
          currency: country.currency,
        });
        list.push({
          externalId,
          country: country.code,
          fuel: 'E5',
          price: value(country.level * 1.05),
          currency: country.currency,
        });
      }
    }
    yield { code: country.code, stations, prices: list };
  }
}
