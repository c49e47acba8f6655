/** The API's date parameters: IANA zones and the seed's rule that a timestamp without an offset is UTC. */

import { parseApiTimestamp as parseTimestamp } from '../model/changes';
import { isValidTimeZone } from '../model/timezone';
import { invalid } from './errors';

export const isTimeZone = isValidTimeZone;

export function requireTimeZone(name: string): string {
  if (!isValidTimeZone(name)) throw invalid(`Unknown timezone: ${name}`);
  return name;
}

/** A calendar day `YYYY-MM-DD` that exists (2026-02-30 does not). */
export function parseDay(day: string): { y: number; m: number; d: number } {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const y = Number(match?.[1]);
  const m = Number(match?.[2]);
  const d = Number(match?.[3]);
  const check = new Date(Date.UTC(y, m - 1, d));
  if (!match || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) {
    throw invalid(`Invalid date: ${day} (expected YYYY-MM-DD)`);
  }
  return { y, m, d };
}

/**
 * An API timestamp: ISO 8601 with or without an offset (without one it is UTC), or a bare date
 * (midnight UTC). A value that is not one, or names a date that does not exist, is a 400.
 */
export function parseApiTimestamp(value: string, name: string): Date {
  const date = parseTimestamp(value);
  if (!date) throw invalid(`${name}: not an ISO 8601 timestamp`);
  return date;
}
