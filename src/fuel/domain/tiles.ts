/**
 * `GET /api/tiles/{z}/{x}/{y}`: one vector tile of a fuel's stations (model/tiles.ts), with a strong
 * validator made from its bytes, so a tile a scrape did not change keeps its `ETag`.
 */
import { createHash } from 'node:crypto';
import type { FuelCode } from '../config';
import { InvalidParameters } from '../model/errors';
import { type TileAddress, tileInGrid } from '../model/tiles';
import type { FuelStore } from '../store/store';

export interface Tile {
  bytes: Uint8Array;
  etag: string;
}

/** `"` + the first 16 hex digits of the bytes' SHA-256 + `"`. */
export const tileEtag = (bytes: Uint8Array): string =>
  `"${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"`;

export async function stationTile(store: FuelStore, query: TileAddress & { fuel: FuelCode }): Promise<Tile> {
  if (!tileInGrid(query)) {
    const last = 2 ** query.z - 1;
    throw new InvalidParameters(
      [
        query.x > last && { path: '/params/x', message: `must be at most ${last} at zoom ${query.z}` },
        query.y > last && { path: '/params/y', message: `must be at most ${last} at zoom ${query.z}` },
      ].filter((detail) => detail !== false),
    );
  }
  const bytes = await store.stationTile(query);
  return { bytes, etag: tileEtag(bytes) };
}

/** Whether `If-None-Match` names the tile's validator (or is `*`): the client's copy is current. */
export function stillCurrent(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}
