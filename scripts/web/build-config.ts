/**
 * The one Vite configuration of the three pages: `web/<service>/` is the root, shared code is `web/shared/`,
 * the built page lands in `web/dist/<service>/` (git-ignored) with its files under `static/`, referenced
 * relatively so a page works under a base path. No inline script or style is emitted: the pages run under
 * each service's same-origin Content-Security-Policy.
 */

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { InlineConfig, Plugin } from 'vite';
import { faviconIco } from './favicon';

export const WEB_SERVICES = ['archive', 'fuel', 'subtitles'] as const;
export type WebService = (typeof WEB_SERVICES)[number];

export const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
export const distOf = (service: WebService) => path.join(webRoot, 'dist', service);

export function viteConfig(service: WebService, overrides: InlineConfig = {}): InlineConfig {
  return {
    configFile: false,
    root: path.join(webRoot, service),
    base: './',
    logLevel: 'warn',
    plugins: [
      preact({ devtoolsInProd: false, prefreshEnabled: overrides.mode === 'development' }),
      ...(service === 'fuel' ? [offlineWorld()] : []),
      favicon(service),
    ],
    build: {
      outDir: distOf(service),
      emptyOutDir: true,
      assetsDir: 'static',
      // Never inline a module as a data: URL: the policy allows scripts from the page's origin only.
      assetsInlineLimit: 0,
      modulePreload: { polyfill: false },
      target: 'es2022',
      sourcemap: false,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 1500,
      // The bundler's timing warning (`[PLUGIN_TIMINGS]`, eight lines before `npm start`'s banner) fires
      // when plugins hold a large share of a one-second build: the offline world's conversion takes about
      // 0.2 s once per build, and preact's transform the rest. A known cost, not a problem to report.
      rolldownOptions: { checks: { bundlerTimings: false } },
    },
    ...(service === 'subtitles' && subtitlesAsPluginPage),
    ...overrides,
  };
}

/**
 * The subtitles settings page is a plugin page of the media server: the page and its two files are all
 * served as `/web/configurationpage?name=…`, so they get fixed names and the page refers to them that way.
 */
const subtitlesAsPluginPage: InlineConfig = {
  build: {
    outDir: distOf('subtitles'),
    emptyOutDir: true,
    assetsDir: 'static',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
    reportCompressedSize: false,
    rolldownOptions: {
      checks: { bundlerTimings: false },
      output: {
        entryFileNames: 'static/subtitles-settings.js',
        assetFileNames: 'static/subtitles-settings[extname]',
      },
    },
  },
  experimental: {
    renderBuiltUrl: (filename) => `configurationpage?name=${path.basename(filename)}`,
  },
};

/** The page's `favicon.ico` (web/favicon.ts), at the root of its build, where `GET /favicon.ico` finds it. */
function favicon(service: WebService): Plugin {
  return {
    name: 'specyard-favicon',
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'favicon.ico', source: await faviconIco(service) });
    },
  };
}

type Position = number[];
type Geometry = { type: string; coordinates: unknown };

/**
 * Natural Earth's shapes that cross the antimeridian (Fiji, Chukotka) are cut there for the sphere: a
 * ring jumps from -180 to 180 degrees, which a flat map draws as a line across the whole world. Each ring
 * and line is made continuous instead (a longitude may go past 180, as the map's own world copies do),
 * except a ring around a pole (Antarctica), which must keep its two ends at -180 and 180.
 */
export function continuousAcrossTheAntimeridian(geometry: Geometry): void {
  const unwrap = (points: Position[], ring: boolean): Position[] => {
    let shift = 0;
    const out = points.map((point, i) => {
      const previous = points[i - 1];
      if (previous) {
        const step = (point[0] as number) - (previous[0] as number);
        if (step > 180) shift -= 360;
        else if (step < -180) shift += 360;
      }
      return [(point[0] as number) + shift, ...point.slice(1)];
    });
    // A ring that does not come back to its start once unwrapped goes around a pole.
    return ring && shift !== 0 ? points : out;
  };
  const rings = (list: Position[][]) => list.map((ring) => unwrap(ring, true));
  switch (geometry.type) {
    case 'LineString':
      geometry.coordinates = unwrap(geometry.coordinates as Position[], false);
      break;
    case 'MultiLineString':
      geometry.coordinates = (geometry.coordinates as Position[][]).map((line) => unwrap(line, false));
      break;
    case 'Polygon':
      geometry.coordinates = rings(geometry.coordinates as Position[][]);
      break;
    case 'MultiPolygon':
      geometry.coordinates = (geometry.coordinates as Position[][][]).map(rings);
      break;
  }
}

/**
 * The fuel map's offline base map (`static/world.geojson`, drawn by `static/blank-style.json` when no tile
 * server answers): land, coastlines and country borders from Natural Earth's 1:50m data as the
 * `world-atlas` package ships it (TopoJSON), turned into GeoJSON at build time, coordinates to four
 * decimals (about 10 m, far finer than the data).
 */
function offlineWorld(): Plugin {
  return {
    name: 'specyard-offline-world',
    generateBundle() {
      const require = createRequire(import.meta.url);
      const topology = JSON.parse(
        readFileSync(require.resolve('world-atlas/countries-50m.json'), 'utf8'),
      ) as Topology;
      const countries = topology.objects.countries as GeometryCollection;
      const land = topology.objects.land as GeometryCollection;
      const landFeatures = feature(topology, land);
      const world = {
        type: 'FeatureCollection',
        features: [
          ...('features' in landFeatures ? landFeatures.features : [landFeatures]).map((f) => ({
            type: 'Feature',
            properties: { kind: 'land' },
            geometry: f.geometry,
          })),
          {
            type: 'Feature',
            properties: { kind: 'border' },
            geometry: mesh(topology, countries, (a, b) => a !== b),
          },
        ],
      };
      for (const f of world.features) continuousAcrossTheAntimeridian(f.geometry as Geometry);
      const source = JSON.stringify(world, (_key, value) =>
        typeof value === 'number' ? Math.round(value * 1e4) / 1e4 : value,
      );
      this.emitFile({ type: 'asset', fileName: 'static/world.geojson', source });
    },
  };
}
