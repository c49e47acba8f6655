import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import type { FuelCode } from '../../model/fuels';
import type { FetchResult, RawPrice, RawStation, Scraper } from '../types';

/** The committed datasets: one `<source>.json` per dataset (see README.md beside them). */
export const DEFAULT_DATASETS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'datasets');

const NAME = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;

const DATASET_SCHEMA = {
  type: 'object',
  required: ['country', 'stations'],
  properties: {
    country: { type: 'string', pattern: '^[A-Z]{2}$' },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    licence: { type: 'string' },
    stations: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'name', 'lat', 'lon', 'type'],
        properties: {
          id: { type: 'string', minLength: 1 },
          name: { type: 'string', minLength: 1 },
          brand: { type: ['string', 'null'] },
          address: { type: 'string' },
          city: { type: 'string' },
          lat: { type: 'number', minimum: -90, maximum: 90 },
          lon: { type: 'number', minimum: -180, maximum: 180 },
          type: { enum: ['fuel', 'ev_charger', 'both'] },
          powerKw: { type: ['number', 'null'] },
          prices: { type: 'object', additionalProperties: { type: 'number' } },
        },
      },
    },
  },
} as const;

interface Dataset {
  country: string;
  currency?: string;
  stations: {
    id: string;
    name: string;
    brand?: string | null;
    address?: string;
    city?: string;
    lat: number;
    lon: number;
    type: RawStation['type'];
    powerKw?: number | null;
    prices?: Record<string, number>;
  }[];
}

const validate = new Ajv({ allErrors: true }).compile<Dataset>(DATASET_SCHEMA);

/** The dataset names in a folder (`portland_ev.json` → `portland_ev`); an absent folder holds none. */
export function listDatasets(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .filter((name) => NAME.test(name))
    .sort();
}

export function parseDataset(value: unknown, name: string): FetchResult & { country: string } {
  if (!validate(value)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
    throw new Error(`Dataset ${name} is invalid: ${problems}`);
  }
  const stations: RawStation[] = [];
  const prices: RawPrice[] = [];
  for (const row of value.stations) {
    stations.push({
      externalId: row.id,
      name: row.name,
      brand: row.brand ?? null,
      address: row.address ?? '',
      city: row.city ?? '',
      lat: row.lat,
      lon: row.lon,
      type: row.type,
      powerKw: row.powerKw ?? null,
    });
    for (const [fuel, price] of Object.entries(row.prices ?? {})) {
      // A code the document lacks is dropped, and counted, by the pipeline.
      prices.push({ externalId: row.id, fuel: fuel as FuelCode, price, currency: value.currency ?? 'EUR' });
    }
  }
  return { country: value.country, stations, prices };
}

/**
 * `STATIC_<NAME>`: a dataset committed to the repository. Its country is read from the file, which is
 * read (and checked) again on every run, so an edit takes effect at the next run.
 */
export function staticScraper(dir: string, name: string, country: string): Scraper<FetchResult> {
  const file = path.join(dir, `${name}.json`);
  return {
    key: `STATIC_${name.toUpperCase()}`,
    source: name,
    country,
    timeoutMs: 10_000,
    async fetch() {
      const dataset = parseDataset(JSON.parse(await readFile(file, 'utf8')), name);
      if (dataset.country !== country) throw new Error(`Dataset ${name} changed country since start-up`);
      return { stations: dataset.stations, prices: dataset.prices };
    },
  };
}
