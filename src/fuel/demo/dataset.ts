/**
 * A realistic, deterministic demo dataset: fuel stations with prices and EV charge points around the cities
 * of Spain and Portugal, with denser coverage along the Madrid–Lisbon motorway so a trip shows stations.
 * The demo command, the live contract suite and the HTTP tests seed it.
 */
import { seededRandom } from '../../common/seeded-random';
import { destination } from '../geo/sphere';
import type { LonLat } from '../model/geometry';
import type { FuelStore, PriceInput, StationInput, StationType } from '../store/store';

interface City {
  name: string;
  country: 'ES' | 'PT';
  at: LonLat;
  stations: number;
  /** Spread of the stations around the centre, in km. */
  radiusKm: number;
}

const CITIES: City[] = [
  { name: 'MADRID', country: 'ES', at: [-3.7038, 40.4168], stations: 70, radiusKm: 9 },
  { name: 'BARCELONA', country: 'ES', at: [2.1686, 41.3874], stations: 40, radiusKm: 7 },
  { name: 'VALENCIA', country: 'ES', at: [-0.3763, 39.4699], stations: 25, radiusKm: 6 },
  { name: 'SEVILLA', country: 'ES', at: [-5.9845, 37.3891], stations: 22, radiusKm: 6 },
  { name: 'ZARAGOZA', country: 'ES', at: [-0.8891, 41.6488], stations: 14, radiusKm: 5 },
  { name: 'MALAGA', country: 'ES', at: [-4.4214, 36.7213], stations: 14, radiusKm: 5 },
  { name: 'BILBAO', country: 'ES', at: [-2.935, 43.263], stations: 12, radiusKm: 5 },
  { name: 'VALLADOLID', country: 'ES', at: [-4.7245, 41.6523], stations: 10, radiusKm: 4 },
  { name: 'MURCIA', country: 'ES', at: [-1.1307, 37.9922], stations: 10, radiusKm: 4 },
  { name: 'A CORUÑA', country: 'ES', at: [-8.4115, 43.3623], stations: 8, radiusKm: 4 },
  { name: 'TALAVERA DE LA REINA', country: 'ES', at: [-4.8319, 39.9635], stations: 8, radiusKm: 2.5 },
  { name: 'NAVALMORAL DE LA MATA', country: 'ES', at: [-5.5408, 39.8906], stations: 4, radiusKm: 2 },
  { name: 'TRUJILLO', country: 'ES', at: [-5.8826, 39.4598], stations: 4, radiusKm: 2 },
  { name: 'MERIDA', country: 'ES', at: [-6.3447, 38.9161], stations: 8, radiusKm: 2.5 },
  { name: 'BADAJOZ', country: 'ES', at: [-6.9707, 38.8794], stations: 9, radiusKm: 3 },
  { name: 'Lisboa', country: 'PT', at: [-9.1393, 38.7223], stations: 32, radiusKm: 7 },
  { name: 'Porto', country: 'PT', at: [-8.6291, 41.1579], stations: 22, radiusKm: 6 },
  { name: 'Braga', country: 'PT', at: [-8.4265, 41.5454], stations: 7, radiusKm: 3 },
  { name: 'Coimbra', country: 'PT', at: [-8.4103, 40.2033], stations: 7, radiusKm: 3 },
  { name: 'Faro', country: 'PT', at: [-7.9304, 37.0194], stations: 6, radiusKm: 3 },
  { name: 'Setúbal', country: 'PT', at: [-8.8882, 38.5244], stations: 6, radiusKm: 3 },
  { name: 'Évora', country: 'PT', at: [-7.9077, 38.5714], stations: 6, radiusKm: 2 },
  { name: 'Elvas', country: 'PT', at: [-7.1633, 38.881], stations: 4, radiusKm: 1.5 },
];

const BRANDS = {
  ES: ['Repsol', 'Cepsa', 'BP', 'Galp', 'Shell', 'Plenoil', 'Ballenoil', 'Petroprix', null],
  PT: ['Galp', 'Prio', 'Repsol', 'BP', 'Cepsa', 'Intermarché', null],
} as const;
const STREETS = {
  ES: [
    'AVENIDA DE ANDALUCIA',
    'CALLE MAYOR',
    'CARRETERA NACIONAL',
    'AVENIDA DE LA CONSTITUCION',
    'CALLE REAL',
  ],
  PT: [
    'Avenida da Liberdade',
    'Rua do Comércio',
    'Estrada Nacional 4',
    'Avenida da República',
    'Rua Direita',
  ],
} as const;
const OPERATORS = ['Iberdrola', 'Endesa X', 'Tesla', 'Ionity', 'Zunder', 'Mobi.E', 'EDP'];
const POWERS = [22, 50, 50, 100, 150, 350];

/** Base prices in EUR per litre (per kg for gases). */
const PRICE_BASE: Record<'ES' | 'PT', Record<string, number>> = {
  ES: { B7: 1.42, E5: 1.56, E10: 1.52, ADBLUE: 0.89, CNG: 1.29, LNG: 1.19, H2: 9.9 },
  PT: { B7: 1.66, E5: 1.81, E10: 1.77, ADBLUE: 1.05, CNG: 1.39 },
};

export interface PriceSet {
  source: string;
  country: string;
  prices: PriceInput[];
}

export interface DemoDataset {
  stations: StationInput[];
  priceSets: PriceSet[];
}

const FUEL_SOURCE = { ES: 'demo-es', PT: 'demo-pt' } as const;

/** The dataset; prices are stamped within the few hours before `now`. */
export function demoDataset(now = new Date('2026-05-12T06:30:12.000Z')): DemoDataset {
  const next = seededRandom(20260512);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;
  const stations: StationInput[] = [];
  const prices: Record<'ES' | 'PT', PriceInput[]> = { ES: [], PT: [] };
  let serial = 1000;
  for (const city of CITIES) {
    for (let i = 0; i < city.stations; i++) {
      serial += 1 + Math.floor(next() * 40);
      const [lon, lat] = destination(city.at, next() * 360, Math.sqrt(next()) * city.radiusKm);
      const position: [number, number] = [round(lon, 5), round(lat, 5)];
      const roll = next();
      const type: StationType = roll < 0.14 ? 'ev_charger' : roll < 0.18 ? 'both' : 'fuel';
      const street = `${pick(STREETS[city.country])}, ${1 + Math.floor(next() * 180)}`;
      if (type === 'ev_charger') {
        const operator = pick(OPERATORS);
        stations.push({
          externalId: `ocm-${serial}`,
          country: city.country,
          type,
          name: `${operator} ${city.name}`,
          brand: operator,
          address: street,
          city: city.name,
          lon: position[0],
          lat: position[1],
          powerKw: next() < 0.1 ? null : pick(POWERS),
          source: 'demo-ocm',
        });
        continue;
      }
      const brand = pick(BRANDS[city.country]);
      const externalId = city.country === 'ES' ? String(serial) : `pt-${serial}`;
      stations.push({
        externalId,
        country: city.country,
        type,
        name: brand ? brand.toUpperCase() : `E.S. ${city.name}`,
        brand,
        address: street,
        city: city.name,
        lon: position[0],
        lat: position[1],
        powerKw: type === 'both' ? pick(POWERS) : null,
        source: FUEL_SOURCE[city.country],
      });
      const reportedAt = new Date(now.getTime() - Math.floor(next() * 6 * 3600) * 1000);
      for (const [fuel, base] of Object.entries(PRICE_BASE[city.country])) {
        const sold = fuel === 'B7' || fuel === 'E5' || next() < (fuel === 'E10' ? 0.5 : 0.08);
        if (!sold) continue;
        const cheap = brand === 'Plenoil' || brand === 'Ballenoil' || brand === 'Petroprix' ? -0.06 : 0;
        const price = round(base + cheap + (next() - 0.5) * 0.12, 3);
        prices[city.country].push({
          externalId,
          country: city.country,
          fuel,
          price,
          currency: 'EUR',
          reportedAt,
        });
      }
    }
  }
  return {
    stations,
    priceSets: (['ES', 'PT'] as const).map((country) => ({
      source: FUEL_SOURCE[country],
      country,
      prices: prices[country],
    })),
  };
}

/** Writes the dataset into a store (replacing earlier demo prices); returns what it wrote. */
export async function seedDemo(
  store: FuelStore,
  dataset = demoDataset(),
): Promise<{ stations: number; prices: number }> {
  const upserted = await store.upsertStations(dataset.stations);
  if (upserted.failedBatches.length > 0) {
    throw new Error(`demo stations not written: ${upserted.failedBatches.map((b) => b.message).join('; ')}`);
  }
  let prices = 0;
  for (const set of dataset.priceSets) {
    prices += (await store.replacePrices(set.source, set.country, set.prices)).inserted;
  }
  return { stations: upserted.count, prices };
}
