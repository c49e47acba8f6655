import { randomUUID } from 'node:crypto';

/**
 * A stable pseudo-random 31-bit number per station identity (FNV-1a): the same station gets the same key on
 * both backends and after a re-import, so an oversized box is cut the same way every time.
 */
export function sampleKey(country: string, externalId: string): number {
  return hash32(`${country}\u0000${externalId}`) >>> 1;
}

/**
 * FNV-1a over a text's UTF-16 units, with a final avalanche so that neighbouring texts do not get
 * neighbouring hashes (an unsigned 32-bit number).
 */
export function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash >>> 0;
}

/**
 * A new station's public id: its sample key in the first 32 bits (big-endian), the rest random, marked as
 * a version 8 (custom layout) UUID. PostgreSQL writes the same layout (`fuel_station_id`, its migration
 * 003). Ids of one write batch, which holds stations in sample-key order, then land side by side in the
 * id's index instead of on a random page each: about a quarter of the time of an upsert of new stations
 * into 1,000,000 stored on SQLite (scripts/bench/README.md).
 */
export function stationIdOf(key: number, random: string = randomUUID()): string {
  return `${key.toString(16).padStart(8, '0')}${random.slice(8, 14)}8${random.slice(15)}`;
}
