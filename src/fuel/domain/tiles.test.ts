import { describe, expect, it } from 'vitest';
import { TileCache } from './tiles';

const tile = (size: number, etag = `"${size}"`) => ({ bytes: new Uint8Array(size), etag });

describe('TileCache', () => {
  it('answers a tile only at the version it was kept at', () => {
    const cache = new TileCache(1000);
    cache.set('B7/0/0/0', '4', tile(10));
    expect(cache.get('B7/0/0/0', '4')?.etag).toBe('"10"');
    expect(cache.get('B7/0/0/0', '5')).toBeUndefined();
    expect(cache.get('E5/0/0/0', '4')).toBeUndefined();
  });

  it('keeps at most its size in bytes, letting the least recently asked go first', () => {
    const cache = new TileCache(100);
    cache.set('a', '1', tile(40));
    cache.set('b', '1', tile(40));
    cache.get('a', '1');
    cache.set('c', '1', tile(40));
    expect(cache.get('b', '1')).toBeUndefined();
    expect(cache.get('a', '1')).toBeDefined();
    expect(cache.get('c', '1')).toBeDefined();
    // Kept again under the same key: counted once.
    cache.set('c', '2', tile(50));
    expect(cache.get('a', '1')).toBeDefined();
    // Larger than the whole cache: not kept.
    cache.set('d', '1', tile(101));
    expect(cache.get('d', '1')).toBeUndefined();
    expect(cache.get('c', '2')).toBeDefined();
  });
});
