import {
  describeInjection,
  indexPath,
  probeServedHtml,
  readIndexFile,
  usesTransform,
} from '../../domain/injection';
import { setupStatus } from '../../domain/setup-status';
import type { Services, SubtitlesHandlers } from '../services';

export function setupHandlers(services: Services) {
  return {
    getSetupStatus: async (_req, res) => {
      const { probe, config } = services;
      res.json(await setupStatus(probe, { dataDir: config.dataDir, ...config.whisper }));
    },
    getInjectionStatus: async (_req, res) => {
      const { config, selfUrl } = services;
      const webPath = `${config.basePath}/web/index.html`;
      const self = selfUrl();
      const served = await probeServedHtml(self && `${self}${webPath}`);
      const index = readIndexFile(indexPath(config.webDir));
      res.json(describeInjection(index, usesTransform(config.injection), served, webPath));
    },
  } satisfies SubtitlesHandlers;
}
