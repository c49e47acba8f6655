import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LonLat } from '../model/geometry';
import { placeInTile, worldFraction } from '../model/tiles';
import { readJson } from '../testing/json';
import { startTestFuel, type TestFuel } from '../testing/server';
import { decodeTile } from '../testing/tiles';

type Feature = { geometry: { coordinates: LonLat }; properties: Record<string, unknown> };

describe('GET /api/tiles/{z}/{x}/{y}', () => {
  let fuel: TestFuel;
  let features: Feature[];
  beforeAll(async () => {
    fuel = await startTestFuel();
    const res = await fetch(`${fuel.url}/api/stations?bbox=-180,-85,180,85&fuel=B7`);
    features = ((await readJson(res)) as { features: Feature[] }).features;
  });
  afterAll(async () => {
    await fuel.close();
  });

  const tile = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${fuel.url}/api/tiles/${path}`, { headers });

  it('answers a vector tile whose clusters count every station of the fuel, with a validator and caching', async () => {
    expect(features.length).toBeGreaterThan(10);
    const res = await tile('0/0/0?fuel=B7');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.mapbox-vector-tile');
    expect(res.headers.get('cache-control')).toBe('public, s-maxage=60, stale-while-revalidate=300');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{16}"$/);
    const { clusters } = decodeTile(new Uint8Array(await res.arrayBuffer()));
    expect(clusters?.reduce((sum, p) => sum + Number(p.properties.count), 0)).toBe(features.length);
    const cheapest = Math.min(...features.map((f) => Number(f.properties.price)));
    expect(Math.min(...(clusters ?? []).map((p) => Number(p.properties.cheapest)))).toBe(cheapest);
  });

  it('answers 304 without a body to a client holding the current tile, and the tile to any other', async () => {
    const etag = (await tile('0/0/0?fuel=B7')).headers.get('etag') as string;
    for (const held of [etag, `W/${etag}`, `"0000000000000000", ${etag}`, '*']) {
      const res = await tile('0/0/0?fuel=B7', { 'If-None-Match': held });
      expect(res.status, held).toBe(304);
      expect(res.headers.get('etag')).toBe(etag);
      expect(await res.text()).toBe('');
    }
    const other = await tile('0/0/0?fuel=B7', { 'If-None-Match': '"0000000000000000"' });
    expect(other.status).toBe(200);
    // Another fuel is another tile.
    expect((await tile('0/0/0?fuel=E5')).headers.get('etag')).not.toBe(etag);
  });

  it('shows every station as its own point at street zoom, with its Feature’s properties', async () => {
    const station = features[0] as Feature;
    const [lon, lat] = station.geometry.coordinates;
    const [fx, fy] = worldFraction(lon, lat);
    const address = { z: 15, x: Math.floor(fx * 2 ** 15), y: Math.floor(fy * 2 ** 15) };
    const res = await tile(`${address.z}/${address.x}/${address.y}?fuel=B7`);
    const { stations } = decodeTile(new Uint8Array(await res.arrayBuffer()));
    const found = stations?.find((p) => p.properties.externalId === station.properties.externalId);
    expect(found?.properties).not.toHaveProperty('id');
    expect(found?.properties).toMatchObject({
      country: station.properties.country,
      externalId: station.properties.externalId,
      name: station.properties.name,
      price: station.properties.price,
      currency: station.properties.currency,
      reportedAt: Date.parse(String(station.properties.reportedAt)),
    });
    const place = placeInTile(address, lon, lat);
    expect(Math.abs((found?.x ?? -9) - (place?.px ?? 0))).toBeLessThanOrEqual(1);
  });

  it('answers a tile again from memory until a write changes the map, then reads it anew', async () => {
    const first = await tile('2/1/1?fuel=B7');
    const etag = first.headers.get('etag');
    const count = (bytes: ArrayBuffer) =>
      decodeTile(new Uint8Array(bytes)).clusters?.reduce((sum, p) => sum + Number(p.properties.count), 0);
    const before = count(await first.arrayBuffer());
    const reads = vi.spyOn(fuel.store, 'stationTile');
    try {
      const again = await tile('2/1/1?fuel=B7');
      expect(again.headers.get('etag')).toBe(etag);
      expect(reads).not.toHaveBeenCalled();
      // A new station with a diesel price in the same tile (Madrid).
      await fuel.store.upsertStations([
        {
          externalId: 'cache-1',
          country: 'ES',
          type: 'fuel',
          name: 'Nueva',
          brand: null,
          address: 'Calle 1',
          city: 'Madrid',
          lon: -3.7,
          lat: 40.42,
          source: 'cache-test',
        },
      ]);
      await fuel.store.replacePrices('cache-test', 'ES', [
        { externalId: 'cache-1', country: 'ES', fuel: 'B7', price: 1.234, currency: 'EUR' },
      ]);
      const after = await tile('2/1/1?fuel=B7');
      expect(reads).toHaveBeenCalledTimes(1);
      expect(after.headers.get('etag')).not.toBe(etag);
      expect(count(await after.arrayBuffer())).toBe((before ?? 0) + 1);
    } finally {
      reads.mockRestore();
      await fuel.store.deleteStationsBySource('cache-test', 'ES');
    }
  });

  it('answers an empty tile where there is no station', async () => {
    const res = await tile('8/0/0?fuel=B7');
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('refuses a tile outside its zoom’s grid, a zoom past 22 and a missing or unknown fuel with 400', async () => {
    for (const [path, where] of [
      ['3/8/0?fuel=B7', '/params/x'],
      ['3/0/8?fuel=B7', '/params/y'],
      ['0/1/1?fuel=B7', '/params/x'],
      ['23/0/0?fuel=B7', '/params/z'],
      ['-1/0/0?fuel=B7', '/params/z'],
      ['1.5/0/0?fuel=B7', '/params/z'],
      ['3/0/0', '/query/fuel'],
      ['3/0/0?fuel=XX', '/query/fuel'],
    ] as const) {
      const res = await tile(path);
      expect(res.status, path).toBe(400);
      const body = (await readJson(res)) as { error: string; details: { path: string }[] };
      expect(body.error).toBe('Invalid parameters');
      expect(body.details.map((d) => d.path.replaceAll('.', '/'))).toContain(where);
    }
  });
});
