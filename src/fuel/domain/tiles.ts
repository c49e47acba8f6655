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

/**
 * The tiles answered last, kept in memory up to a size in bytes (the least recently asked go first), each
 * with the store's tile version it was computed at (FuelStore.tileVersion): a tile is answered from here only
 * while the version is still that one, so any write that changes the map, and any build of its clusters, makes every kept tile
 * be read again (a tile it did not change comes back with the same bytes and ETag).
 */
export class TileCache {
  private readonly tiles = new Map<string, Tile & { version: string }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, version: string): Tile | undefined {
    const tile = this.tiles.get(key);
    if (!tile || tile.version !== version) return undefined;
    // Asked again: the most recent now.
    this.tiles.delete(key);
    this.tiles.set(key, tile);
    return tile;
  }

  set(key: string, version: string, tile: Tile): void {
    this.drop(key);
    if (cost(key, tile) > this.maxBytes) return;
    this.tiles.set(key, { ...tile, version });
    this.bytes += cost(key, tile);
    for (const [oldest] of this.tiles) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const tile = this.tiles.get(key);
    if (!tile) return;
    this.tiles.delete(key);
    this.bytes -= cost(key, tile);
  }
}

/**
 * What a kept tile counts for: its bytes and what keeping it costs besides (its key, validator and map
 * entry), so that empty tiles, which are no bytes, cannot be kept without bound.
 */
const ENTRY_BYTES = 128;
const cost = (key: string, tile: Tile) => tile.bytes.length + key.length + tile.etag.length + ENTRY_BYTES;

/** 64 MB of tiles: a few thousand of the low zooms' (at most tens of KB each). */
export const TILE_CACHE_BYTES = 64 * 1024 * 1024;

export async function stationTile(
  store: FuelStore,
  query: TileAddress & { fuel: FuelCode },
  cache?: TileCache,
): Promise<Tile> {
  if (!tileInGrid(query)) {
    const last = 2 ** query.z - 1;
    throw new InvalidParameters(
      [
        query.x > last && { path: '/params/x', message: `must be at most ${last} at zoom ${query.z}` },
        query.y > last && { path: '/params/y', message: `must be at most ${last} at zoom ${query.z}` },
      ].filter((detail) => detail !== false),
    );
  }
  const key = `${query.fuel}/${query.z}/${query.x}/${query.y}`;
  // The version read before the tile: a tile written in between is labelled older than it is, and read
  // again on the next request rather than kept too long.
  const version = cache ? await store.tileVersion() : '';
  const kept = cache?.get(key, version);
  if (kept) return kept;
  const bytes = await store.stationTile(query);
  const tile = { bytes, etag: tileEtag(bytes) };
  cache?.set(key, version, tile);
  return tile;
}

/** Whether `If-None-Match` names the tile's validator (or is `*`): the client's copy is current. */
export function stillCurrent(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}
