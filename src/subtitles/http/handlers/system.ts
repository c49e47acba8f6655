import { publicSystemInfo, systemInfo } from '../../domain/system-info';
import type { Services, SubtitlesHandlers } from '../services';

function publicInfo(s: Services) {
  const { config, settings, selfUrl } = s;
  const origin = selfUrl() ?? `http://${config.host}:${config.port}`;
  return publicSystemInfo({
    localAddress: `${origin}${config.basePath}`,
    serverName: config.serverName,
    version: config.serverVersion,
    serverId: settings.serverId,
  });
}

export function systemHandlers(services: Services) {
  return {
    getPublicSystemInfo: (_req, res) => {
      res.json(publicInfo(services));
    },
    getSystemInfo: (_req, res) => {
      res.json(systemInfo(publicInfo(services), process.platform));
    },
    getServerConfiguration: (_req, res) => {
      res.json({ EnableLegacyAuthorization: services.settings.legacy.enabled });
    },
    updateServerConfiguration: async (req, res) => {
      await services.settings.legacy.set(req.body.EnableLegacyAuthorization);
      req.log.info({ enabled: req.body.EnableLegacyAuthorization }, 'legacy authorization switched');
      res.status(204).end();
    },
  } satisfies SubtitlesHandlers;
}
