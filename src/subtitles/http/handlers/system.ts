import { publicSystemInfo, systemInfo } from '../../domain/system-info';
import { type Handler, type Services, services } from '../services';

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

export const getPublicSystemInfo: Handler<'getPublicSystemInfo'> = (req, res) => {
  res.json(publicInfo(services(req)));
};

export const getSystemInfo: Handler<'getSystemInfo'> = (req, res) => {
  res.json(systemInfo(publicInfo(services(req)), process.platform));
};

export const getServerConfiguration: Handler<'getServerConfiguration'> = (req, res) => {
  res.json({ EnableLegacyAuthorization: services(req).settings.legacy.enabled });
};

export const updateServerConfiguration: Handler<'updateServerConfiguration'> = async (req, res) => {
  await services(req).settings.legacy.set(req.body.EnableLegacyAuthorization);
  req.log.info({ enabled: req.body.EnableLegacyAuthorization }, 'legacy authorization switched');
  res.status(204).end();
};
