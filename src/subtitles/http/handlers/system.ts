import { publicSystemInfo, systemInfo } from '../../domain/system-info';
import type { SubtitlesHandlers, SubtitlesWiring } from '../wiring';

function publicInfo(wiring: SubtitlesWiring) {
  const { config, settings, selfUrl } = wiring;
  const origin = selfUrl() ?? `http://${config.host}:${config.port}`;
  return publicSystemInfo({
    localAddress: `${origin}${config.basePath}`,
    serverName: config.serverName,
    version: config.serverVersion,
    serverId: settings.serverId,
  });
}

export function systemHandlers(wiring: SubtitlesWiring) {
  return {
    getPublicSystemInfo: (_req, res) => {
      res.json(publicInfo(wiring));
    },
    getSystemInfo: (_req, res) => {
      res.json(systemInfo(publicInfo(wiring), process.platform));
    },
    getServerConfiguration: (_req, res) => {
      res.json({ EnableLegacyAuthorization: wiring.settings.legacy.enabled });
    },
    updateServerConfiguration: async (req, res) => {
      await wiring.settings.legacy.set(req.body.EnableLegacyAuthorization);
      req.log.info({ enabled: req.body.EnableLegacyAuthorization }, 'legacy authorization switched');
      res.status(204).end();
    },
  } satisfies SubtitlesHandlers;
}
