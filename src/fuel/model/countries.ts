/**
 * Map settings per country: the country's own name for itself, the initial map centre and zoom, and the
 * fuel the map shows first. The seed leaves these values open; they are ours.
 */

import type { FuelCode } from './fuels';
import type { LonLat } from './geometry';

export interface CountryMapSettings {
  name: string;
  center: LonLat;
  zoom: number;
  defaultFuel: FuelCode;
}

export const COUNTRY_SETTINGS: Readonly<Record<string, CountryMapSettings>> = Object.freeze({
  ES: { name: 'España', center: [-3.7038, 40.4168], zoom: 6, defaultFuel: 'B7' },
  PT: { name: 'Portugal', center: [-8.2245, 39.3999], zoom: 7, defaultFuel: 'B7' },
  FR: { name: 'France', center: [2.2137, 46.2276], zoom: 6, defaultFuel: 'E10' },
  IT: { name: 'Italia', center: [12.5674, 41.8719], zoom: 6, defaultFuel: 'E5' },
  DE: { name: 'Deutschland', center: [10.4515, 51.1657], zoom: 6, defaultFuel: 'E5' },
  AT: { name: 'Österreich', center: [14.5501, 47.5162], zoom: 7, defaultFuel: 'B7' },
  GB: { name: 'United Kingdom', center: [-2.5879, 53.3781], zoom: 6, defaultFuel: 'E10' },
  IE: { name: 'Éire', center: [-8.2439, 53.4129], zoom: 7, defaultFuel: 'E10' },
  NL: { name: 'Nederland', center: [5.2913, 52.1326], zoom: 7, defaultFuel: 'E10' },
  BE: { name: 'België', center: [4.4699, 50.5039], zoom: 8, defaultFuel: 'E10' },
  LU: { name: 'Lëtzebuerg', center: [6.1296, 49.8153], zoom: 10, defaultFuel: 'E10' },
  CH: { name: 'Schweiz', center: [8.2275, 46.8182], zoom: 8, defaultFuel: 'E5' },
  DK: { name: 'Danmark', center: [9.5018, 56.2639], zoom: 7, defaultFuel: 'E10' },
  SE: { name: 'Sverige', center: [18.0686, 60.1282], zoom: 5, defaultFuel: 'E10' },
  NO: { name: 'Norge', center: [8.4689, 60.472], zoom: 5, defaultFuel: 'E10' },
  FI: { name: 'Suomi', center: [25.7482, 61.9241], zoom: 5, defaultFuel: 'E10' },
  IS: { name: 'Ísland', center: [-19.0208, 64.9631], zoom: 6, defaultFuel: 'E5' },
  SI: { name: 'Slovenija', center: [14.9955, 46.1512], zoom: 8, defaultFuel: 'B7' },
  HR: { name: 'Hrvatska', center: [15.2, 45.1], zoom: 7, defaultFuel: 'B7' },
  RO: { name: 'România', center: [24.9668, 45.9432], zoom: 7, defaultFuel: 'B7' },
  BG: { name: 'България', center: [25.4858, 42.7339], zoom: 7, defaultFuel: 'B7' },
  GR: { name: 'Ελλάδα', center: [21.8243, 39.0742], zoom: 7, defaultFuel: 'E5' },
  CY: { name: 'Κύπρος', center: [33.4299, 35.1264], zoom: 9, defaultFuel: 'E5' },
  PL: { name: 'Polska', center: [19.1451, 51.9194], zoom: 6, defaultFuel: 'E5' },
  CZ: { name: 'Česko', center: [15.473, 49.8175], zoom: 7, defaultFuel: 'E5' },
  SK: { name: 'Slovensko', center: [19.699, 48.669], zoom: 8, defaultFuel: 'E5' },
  HU: { name: 'Magyarország', center: [19.5033, 47.1625], zoom: 7, defaultFuel: 'E5' },
  EE: { name: 'Eesti', center: [25.0136, 58.5953], zoom: 7, defaultFuel: 'E10' },
  LV: { name: 'Latvija', center: [24.6032, 56.8796], zoom: 7, defaultFuel: 'E5' },
  LT: { name: 'Lietuva', center: [23.8813, 55.1694], zoom: 7, defaultFuel: 'E5' },
  RS: { name: 'Србија', center: [21.0059, 44.0165], zoom: 7, defaultFuel: 'B7' },
  BA: { name: 'Bosna i Hercegovina', center: [17.6791, 43.9159], zoom: 7, defaultFuel: 'B7' },
  MK: { name: 'Северна Македонија', center: [21.7453, 41.6086], zoom: 8, defaultFuel: 'B7' },
  MD: { name: 'Moldova', center: [28.3699, 47.4116], zoom: 7, defaultFuel: 'B7' },
  TR: { name: 'Türkiye', center: [35.2433, 38.9637], zoom: 6, defaultFuel: 'B7' },
  MX: { name: 'México', center: [-102.5528, 23.6345], zoom: 5, defaultFuel: 'E10' },
  AR: { name: 'Argentina', center: [-63.6167, -38.4161], zoom: 4, defaultFuel: 'E5' },
  AU: { name: 'Australia', center: [133.7751, -25.2744], zoom: 4, defaultFuel: 'E10' },
  TW: { name: '臺灣', center: [120.9605, 23.6978], zoom: 7, defaultFuel: 'E5' },
});

/** Codes that enable something (EV chargers) without a map of their own. */
export const CODES_WITHOUT_MAP: readonly string[] = ['US'];

export function countryName(code: string): string {
  return COUNTRY_SETTINGS[code]?.name ?? code;
}
