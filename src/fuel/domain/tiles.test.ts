import { describe, expect, it } from 'vitest';
import { TileCache } from './tiles';

const tile = (size: number, etag = `"${size}"`) => ({ bytes: new Uint8Array(size), etag });

describe('TileCache', () => {
  it('counts every kept tile for more than its bytes, so empty tiles cannot be kept without bound', () => {
    const cache = new TileCache(10_000);
    for (let x = 0; x < 1000; x++) cache.set(`B7/22/${x}/0`, '1', tile(0));
    const kept = Array.from({ length: 1000 }, (_, x) => cache.get(`B7/22/${x}/0`, '1')).filter(Boolean);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(100);
    // The newest are the ones kept.
    expect(cache.get('B7/22/999/0', '1')).toBeDefined();
  });

  it('answers a tile only at the version it was kept at', () => {
    const cache = new TileCache(1000);
    cache.set('B7/0/0/0', '4', tile(10));
    expect(cache.get('B7/0/0/0', '4')?.etag).toBe('"10"');
    expect(cache.get('B7/0/0/0', '5')).toBeUndefined();
    expect(cache.get('E5/0/0/0', '4')).toBeUndefined();
  });

  it('keeps at most its size in bytes, letting the least recently asked go first', () => {
    // Each tile of 300 bytes counts for about 430 with its key and validator: two fit in 1,000.
    const cache = new TileCache(1000);
    cache.set('a', '1', tile(300));
    cache.set('b', '1', tile(300));
    cache.get('a', '1');
    cache.set('c', '1', tile(300));
    expect(cache.get('b', '1')).toBeUndefined();
    expect(cache.get('a', '1')).toBeDefined();
    expect(cache.get('c', '1')).toBeDefined();
    // Kept again under the same key: counted once.
    cache.set('c', '2', tile(350));
    expect(cache.get('a', '1')).toBeDefined();
    // Larger than the whole cache: not kept.
    cache.set('d', '1', tile(1000));
    expect(cache.get('d', '1')).toBeUndefined();
    expect(cache.get('c', '2')).toBeDefined();
  });
});
