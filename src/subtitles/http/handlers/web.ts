import { readFile } from 'node:fs/promises';
import { clientScript } from '../../domain/client-script';
import { indexPath, normalizeInjection, usesTransform } from '../../domain/injection';
import { type Handler, services } from '../services';

export const getWebClientIndex: Handler<'getWebClientIndex'> = async (req, res) => {
  const { config } = services(req);
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
};

export const getConfigurationPage: Handler<'getConfigurationPage'> = (req, res) => {
  const { config } = services(req);
  if (!config.pluginEnabled) {
    res.status(404).end();
    return;
  }
  res.type('text/javascript').end(clientScript(config.basePath, config.pluginName));
};
