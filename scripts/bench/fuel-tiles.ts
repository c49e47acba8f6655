/**
 * The fuel benchmark's vector tiles (`GET /api/tiles/{z}/{x}/{y}`), on the server the fuel benchmark
 * started: what viewing the whole of Spain costs the browser and the server against the box route's
 * GeoJSON answer, and each zoom's tiles over the country and its densest city (p50 and p99 of sequential
 * requests; the first pass over each zoom's tiles is its cold figure, the database's cache aside), with
 * the largest tile's size, as the server sends it and compressed. Not a test: the figures go to
 * scripts/bench/README.md.
 */
import { gzipSync } from 'node:zlib';
import type { BBox } from '../../src/fuel/model/geometry';
import { type TileAddress, worldFraction } from '../../src/fuel/model/tiles';

export interface TileZoomRow {
  backend: string;
  zoom: number;
  tiles: number;
  coldP99: number;
  warmP50: number;
  warmP99: number;
  largestBytes: number;
  largestGzip: number;
}

export interface SpainViewRow {
  backend: string;
  geojsonBytes: number;
  geojsonGzip: number;
  geojsonMs: number;
  tiles: number;
  tileBytes: number;
  tileGzip: number;
  tileMs: number;
}

const percentile = (list: number[], p: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
};

/** The tiles of a zoom that cover a box (at most `most`, the ones nearest its middle first). */
export function tilesOver([w, s, e, n]: BBox, z: number, most = Number.POSITIVE_INFINITY): TileAddress[] {
  const size = 2 ** z;
  const [x0, y0] = worldFraction(w, n).map((f) => Math.floor(f * size)) as [number, number];
  const [x1, y1] = worldFraction(e, s).map((f) => Math.floor(f * size)) as [number, number];
  const tiles: TileAddress[] = [];
  for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) tiles.push({ z, x, y });
  const [mx, my] = [(x0 + x1) / 2, (y0 + y1) / 2];
  tiles.sort((a, b) => Math.hypot(a.x - mx, a.y - my) - Math.hypot(b.x - mx, b.y - my));
  return tiles.slice(0, most);
}

async function fetchTile(url: string, { z, x, y }: TileAddress): Promise<{ ms: number; bytes: Uint8Array }> {
  const t = performance.now();
  const res = await fetch(`${url}/api/tiles/${z}/${x}/${y}?fuel=B7`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`tile ${z}/${x}/${y}: status ${res.status}`);
  return { ms: performance.now() - t, bytes };
}

/** Spain in one view: the box answer against the zoom-6 tiles a 1280×800 map of it loads. */
export async function spainView(
  backend: string,
  url: string,
  spain: BBox,
  iterations: number,
): Promise<SpainViewRow> {
  const box = `${url}/api/stations?bbox=${spain.join(',')}&fuel=B7`;
  const geojson = new Uint8Array(await (await fetch(box)).arrayBuffer());
  const boxTimes: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    await (await fetch(box)).arrayBuffer();
    boxTimes.push(performance.now() - t);
  }
  const tiles = tilesOver(spain, 6);
  const tileTimes: number[] = [];
  let bytes: Uint8Array[] = [];
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    const got = [];
    for (const tile of tiles) got.push(await fetchTile(url, tile));
    tileTimes.push(performance.now() - t);
    bytes = got.map((g) => g.bytes);
  }
  return {
    backend,
    geojsonBytes: geojson.length,
    geojsonGzip: gzipSync(geojson).length,
    geojsonMs: percentile(boxTimes, 0.5),
    tiles: tiles.length,
    tileBytes: bytes.reduce((sum, b) => sum + b.length, 0),
    tileGzip: bytes.reduce((sum, b) => sum + gzipSync(b).length, 0),
    tileMs: percentile(tileTimes, 0.5),
  };
}

/** Each zoom's tiles over the country (and over the densest city from zoom 9), cold then warm. */
export async function tileZooms(
  backend: string,
  url: string,
  spain: BBox,
  city: BBox,
  iterations: number,
): Promise<TileZoomRow[]> {
  const rows: TileZoomRow[] = [];
  for (const z of [0, 3, 5, 7, 9, 10, 11, 13, 14, 16]) {
    const tiles = tilesOver(z < 9 ? spain : city, z, 24);
    const cold: number[] = [];
    let largest: Uint8Array = new Uint8Array();
    for (const tile of tiles) {
      const got = await fetchTile(url, tile);
      cold.push(got.ms);
      if (got.bytes.length > largest.length) largest = got.bytes;
    }
    const warm: number[] = [];
    for (let i = 0; i < Math.max(1, Math.ceil(iterations / tiles.length)); i++) {
      for (const tile of tiles) warm.push((await fetchTile(url, tile)).ms);
    }
    rows.push({
      backend,
      zoom: z,
      tiles: tiles.length,
      coldP99: percentile(cold, 0.99),
      warmP50: percentile(warm, 0.5),
      warmP99: percentile(warm, 0.99),
      largestBytes: largest.length,
      largestGzip: gzipSync(largest).length,
    });
    console.error(`${backend}: tiles at zoom ${z} done`);
  }
  return rows;
}

export function printTiles(spain: SpainViewRow[], zooms: TileZoomRow[]): void {
  const kb = (n: number) => (n / 1024).toFixed(1);
  console.log(
    '\n| backend | Spain as GeoJSON: KB (gzip) | p50 ms | as zoom-6 tiles: tiles | KB (gzip) | p50 ms, one after another | bytes (gzip) | time |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of spain) {
    console.log(
      `| ${r.backend} | ${kb(r.geojsonBytes)} (${kb(r.geojsonGzip)}) | ${r.geojsonMs.toFixed(1)} | ${r.tiles} | ${kb(r.tileBytes)} (${kb(r.tileGzip)}) | ${r.tileMs.toFixed(1)} | ${(r.tileGzip / r.geojsonGzip).toFixed(3)} | ${(r.tileMs / r.geojsonMs).toFixed(3)} |`,
    );
  }
  console.log('\n| backend | zoom | tiles | cold p99 ms | warm p50 ms | warm p99 ms | largest KB (gzip) |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of zooms) {
    console.log(
      `| ${r.backend} | ${r.zoom} | ${r.tiles} | ${r.coldP99.toFixed(1)} | ${r.warmP50.toFixed(1)} | ${r.warmP99.toFixed(1)} | ${kb(r.largestBytes)} (${kb(r.largestGzip)}) |`,
    );
  }
}
