/**
 * The one Vite configuration of the three pages: `web/<service>/` is the root, shared code is `web/shared/`,
 * the built page lands in `web/dist/<service>/` (git-ignored) with its files under `static/`, referenced
 * relatively so a page works under a base path. No inline script or style is emitted: the pages run under
 * each service's same-origin Content-Security-Policy.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import type { InlineConfig } from 'vite';

export const WEB_SERVICES = ['archive', 'fuel', 'subtitles'] as const;
export type WebService = (typeof WEB_SERVICES)[number];

export const webRoot = path.dirname(fileURLToPath(import.meta.url));
export const distOf = (service: WebService) => path.join(webRoot, 'dist', service);

export function viteConfig(service: WebService, overrides: InlineConfig = {}): InlineConfig {
  return {
    configFile: false,
    root: path.join(webRoot, service),
    base: './',
    logLevel: 'warn',
    plugins: [preact({ devtoolsInProd: false, prefreshEnabled: overrides.mode === 'development' })],
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
    rollupOptions: {
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
