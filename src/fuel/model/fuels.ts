/**
 * The fuel codes: one list, defined in the OpenAPI document (`FuelCode`) and read from its bundle, so the
 * routes, the scrapers and the map settings cannot disagree with the document.
 */
import document from '../../../generated/fuel/openapi.json';
import type { components } from '../../../generated/fuel/types';

export type FuelCode = components['schemas']['FuelCode'];

const schema = document.components.schemas.FuelCode as {
  enum: string[];
  'x-enum-descriptions': Record<string, string>;
};

/** Every code, in the document's order. */
export const FUEL_CODES: readonly FuelCode[] = Object.freeze(schema.enum as FuelCode[]);

/** What each code stands for, as the document says. */
export const FUEL_DESCRIPTIONS: Readonly<Record<string, string>> = Object.freeze({
  ...schema['x-enum-descriptions'],
});

export const isFuelCode = (value: string): value is FuelCode => FUEL_CODES.includes(value as FuelCode);

/** The codes given, once each, in the document's order. */
export function inListOrder(codes: Iterable<FuelCode>): FuelCode[] {
  const wanted = new Set(codes);
  return FUEL_CODES.filter((code) => wanted.has(code));
}
