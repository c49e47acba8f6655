/**
 * The documented web routes of the fuel service: the map at `/` with the base style in its page and the
 * style's origin in its policy (503 with a hint while it is not built), its built files under `/static/`
 * with a year's cache, and 404 `{error}` for any other name.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExamplePages, writeExamplePages } from '../../common/testing/example-pages';
import { DEFAULT_MAP_STYLE_URL } from '../config';
import { startTestFuel, type TestFuel } from '../testing/server';

let pages: ExamplePages;
let empty: string;
let fuel: TestFuel;
let styled: TestFuel;
let unbuilt: TestFuel;

beforeAll(async () => {
  pages = await writeExamplePages('fuel');
  empty = await mkdtemp(path.join(tmpdir(), 'fuel-no-pages-'));
  [fuel, styled, unbuilt] = await Promise.all([
    startTestFuel({ webDist: pages.distRoot }),
    startTestFuel({
      webDist: pages.distRoot,
      env: { APP_MAP_STYLE_URL: 'https://maps.example.net/styles/dark.json?key=a&b="c"' },
    }),
    startTestFuel({ webDist: empty }),
  ]);
});

afterAll(async () => {
  await Promise.all([fuel?.close(), styled?.close(), unbuilt?.close()]);
  await pages?.remove();
  await rm(empty, { recursive: true, force: true });
});

describe('the web map', () => {
  it('serves the page with the default style, no-cache and the style host in its policy', async () => {
    const res = await fetch(`${fuel.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain(`connect-src 'self' ${new URL(DEFAULT_MAP_STYLE_URL).origin}`);
    const html = await res.text();
    expect(html).toContain(`<meta name="map-style" content="${DEFAULT_MAP_STYLE_URL}">`);
    expect(html).toBe(pages.page);
  });

  it('writes APP_MAP_STYLE_URL into the page, escaped, and lets its origin through', async () => {
    const res = await fetch(`${styled.url}/`);
    const html = await res.text();
    expect(html).toContain(
      '<meta name="map-style" content="https://maps.example.net/styles/dark.json?key=a&amp;b=&quot;c&quot;">',
    );
    expect(html.match(/name="map-style"/g)).toHaveLength(1);
    expect(res.headers.get('content-security-policy')).toContain(
      "img-src 'self' data: blob: https://maps.example.net",
    );
  });

  it('says how to build it while it is not built', async () => {
    const res = await fetch(`${unbuilt.url}/`);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build:web');
  });

  it('serves a built file for a year', async () => {
    const res = await fetch(`${fuel.url}/static/${pages.asset.file}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe(pages.asset.body);
  });

  it.each(['missing-0000.js', '.hidden', '..%2Findex.html', 'index.html'])(
    'answers 404 {error} for /static/%s',
    async (name) => {
      const res = await fetch(`${fuel.url}/static/${name}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'Not found' });
    },
  );
});
