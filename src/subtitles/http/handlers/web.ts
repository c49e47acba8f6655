import { readFile } from 'node:fs/promises';
import type { Response } from 'express';
import { builtFile, sameOriginPolicy, sendFavicon, withMeta } from '../../../common/http/web-page';
import { clientScript } from '../../domain/client-script';
import { indexPath, normalizeInjection, usesTransform } from '../../domain/injection';
import { SETTINGS_PAGE } from '../../domain/web-client';
import type { SubtitlesHandlers, SubtitlesWiring } from '../wiring';

export function webHandlers(wiring: SubtitlesWiring) {
  return {
    redirectToWebClient: (_req, res) => {
      // No body, as documented (Express's redirect would write one).
      res.status(302).location(`${wiring.config.basePath}/web/index.html`).end();
    },
    getWebClientIndex: async (_req, res) => {
      const { config } = wiring;
      const html = await readFile(indexPath(config.webDir), 'utf8').catch(() => undefined);
      if (html === undefined) {
        res.status(404).end();
        return;
      }
      const transform = config.pluginEnabled && usesTransform(config.injection);
      res
        .type('text/html')
        .set('Cache-Control', 'no-cache')
        .end(transform ? normalizeInjection(html) : html);
    },
    getFavicon: async (_req, res) => {
      const page = { service: 'subtitles', distRoot: wiring.webDist } as const;
      if (!(await sendFavicon(res as Response, page))) res.status(404).end();
    },
    getConfigurationPage: (req, res) => {
      const { config } = wiring;
      if (!config.pluginEnabled) {
        res.status(404).end();
        return;
      }
      const { name } = req.query;
      if (name === 'subtitles.js') {
        res.type('text/javascript').end(clientScript(config.basePath, config.pluginName));
        return;
      }
      if (name === SETTINGS_PAGE) {
        // A view of the web client's dashboard: it takes the web client's policy and sign-in.
        res.type('text/html').set('Cache-Control', 'no-cache').end(settingsView(config.pluginName));
        return;
      }
      // The settings page and its two files, built from web/subtitles/ (npm run build:web).
      const [relative, type] = SETTINGS_FILES[name];
      const body = builtFile({ service: 'subtitles', distRoot: wiring.webDist }, relative);
      res.set('Content-Security-Policy', sameOriginPolicy()).set('Cache-Control', 'no-cache');
      if (body === undefined) {
        res.status(503).end();
        return;
      }
      res.type(type).end(type === 'text/html' ? withMeta(body, { plugin: config.pluginName }) : body);
    },
  } satisfies SubtitlesHandlers;
}

/**
 * The settings page as the web client shows a plugin's page: a `data-role="page"` view (the web client
 * keeps the `div` and drops the rest), its controller the settings page's own module, which the web client
 * imports once the view is in place and which mounts the page into `#app`.
 */
export function settingsView(pluginName: string): string {
  const name = escapeHtml(pluginName);
  return `<div data-role="page" class="page type-interior pluginConfigurationPage" data-title="${name}" data-controller="__plugin/subtitles-settings.js">
<meta name="plugin" content="${name}">
<link rel="stylesheet" href="configurationpage?name=subtitles-settings.css">
<div class="content-primary"><div id="app"></div></div>
</div>
`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const SETTINGS_FILES = {
  'subtitles.html': ['index.html', 'text/html'],
  'subtitles-settings.js': ['static/subtitles-settings.js', 'text/javascript'],
  'subtitles-settings.css': ['static/subtitles-settings.css', 'text/css'],
} as const;
