/**
 * The documented web routes of the viewer: the page at `/` (503 with a hint while it is not built), its
 * built files under `/static/` with a year's cache, 404 for any other name, and the reference pages' files.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExamplePages, writeExamplePages } from '../../common/testing/example-pages';
import { CONTENT_SECURITY_POLICY } from './security';
import { startTestViewer, type TestViewer } from './test-viewer';

let pages: ExamplePages;
let empty: string;
let built: TestViewer;
let unbuilt: TestViewer;

beforeAll(async () => {
  pages = await writeExamplePages('archive');
  empty = await mkdtemp(path.join(tmpdir(), 'archive-no-pages-'));
  [built, unbuilt] = await Promise.all([
    startTestViewer(undefined, { webDist: pages.distRoot }),
    startTestViewer(undefined, { webDist: empty, seed: false }),
  ]);
});

afterAll(async () => {
  await Promise.all([built?.close(), unbuilt?.close()]);
  await pages?.remove();
  await rm(empty, { recursive: true, force: true });
});

describe('the web viewer', () => {
  it('serves the page at / with no-cache and the same-origin policy', async () => {
    const res = await fetch(`${built.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await res.text()).toBe(pages.page);
  });

  it('says how to build it while it is not built', async () => {
    const res = await fetch(`${unbuilt.url}/`);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toContain('npm run build:web');
  });

  it('serves a built file for a year with its own type', async () => {
    const res = await fetch(`${built.url}/static/${pages.asset.file}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe(pages.asset.body);
  });

  it.each(['missing-0000.js', '.hidden', '..%2Findex.html', '%2E%2E%2F%2E%2E%2Fpackage.json', 'index.html'])(
    'answers 404 {detail} for /static/%s',
    async (name) => {
      const res = await fetch(`${built.url}/static/${name}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: 'Not found' });
    },
  );

  it('answers 404 for a file of an unbuilt page', async () => {
    expect((await fetch(`${unbuilt.url}/static/${pages.asset.file}`)).status).toBe(404);
  });
});

describe('the reference pages', () => {
  it.each([
    ['swagger-ui.js', /javascript/],
    ['swagger-ui.css', /^text\/css/],
    ['docs-init.js', /javascript/],
    ['reference-init.js', /javascript/],
  ])('serves %s for a day', async (name, type) => {
    const res = await fetch(`${built.url}/static/docs/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(type);
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
  });

  it('answers 404 for another name', async () => {
    const res = await fetch(`${built.url}/static/docs/swagger-ui-bundle.js`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: 'Not found' });
  });
});
