import {
  describeInjection,
  indexPath,
  probeServedHtml,
  readIndexFile,
  usesTransform,
} from '../../domain/injection';
import { setupStatus } from '../../domain/setup-status';
import { type Handler, services } from '../services';

export const getSetupStatus: Handler<'getSetupStatus'> = async (req, res) => {
  const { probe, config } = services(req);
  res.json(await setupStatus(probe, { dataDir: config.dataDir, ...config.whisper }));
};

export const getInjectionStatus: Handler<'getInjectionStatus'> = async (req, res) => {
  const { config, selfUrl } = services(req);
  const webPath = `${config.basePath}/web/index.html`;
  const self = selfUrl();
  const served = await probeServedHtml(self && `${self}${webPath}`);
  const index = readIndexFile(indexPath(config.webDir));
  res.json(describeInjection(index, usesTransform(config.injection), served, webPath));
};
