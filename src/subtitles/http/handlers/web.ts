import { readFile } from 'node:fs/promises';
import { builtFile, sameOriginPolicy, withMeta } from '../../../common/http/web-page';
import { clientScript } from '../../domain/client-script';
import { indexPath, normalizeInjection, usesTransform } from '../../domain/injection';
import type { Services, SubtitlesHandlers } from '../services';

export function webHandlers(services: Services) {
  return {
    redirectToWebClient: (_req, res) => {
      // No body, as documented (Express's redirect would write one).
      res.status(302).location(`${services.config.basePath}/web/index.html`).end();
    },
    getWebClientIndex: async (_req, res) => {
      const { config } = services;
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
    getConfigurationPage: (req, res) => {
      const { config } = services;
      if (!config.pluginEnabled) {
        res.status(404).end();
        return;
      }
      const { name } = req.query;
      if (name === 'subtitles.js') {
        res.type('text/javascript').end(clientScript(config.basePath, config.pluginName));
        return;
      }
      // The settings page and its two files, built from web/subtitles/ (npm run build:web).
      const [relative, type] = SETTINGS_FILES[name];
      const body = builtFile({ service: 'subtitles' }, relative);
      res.set('Content-Security-Policy', sameOriginPolicy()).set('Cache-Control', 'no-cache');
      if (body === undefined) {
        res.status(503).end();
        return;
      }
      res.type(type).end(type === 'text/html' ? withMeta(body, { plugin: config.pluginName }) : body);
    },
  } satisfies SubtitlesHandlers;
}

const SETTINGS_FILES = {
  'subtitles.html': ['index.html', 'text/html'],
  'subtitles-settings.js': ['static/subtitles-settings.js', 'text/javascript'],
  'subtitles-settings.css': ['static/subtitles-settings.css', 'text/css'],
} as const;
