import {
  describeInjection,
  indexPath,
  probeServedHtml,
  readIndexFile,
  usesTransform,
} from '../../domain/injection';
import { setupStatus } from '../../domain/setup-status';
import type { SubtitlesHandlers, SubtitlesWiring } from '../wiring';

export function setupHandlers(wiring: SubtitlesWiring) {
  return {
    getSetupStatus: async (_req, res) => {
      const { probe, config } = wiring;
      res.json(await setupStatus(probe, { dataDir: config.dataDir, ...config.whisper }));
    },
    getInjectionStatus: async (_req, res) => {
      const { config, selfUrl } = wiring;
      const webPath = `${config.basePath}/web/index.html`;
      const self = selfUrl();
      const served = await probeServedHtml(self && `${self}${webPath}`);
      const index = readIndexFile(indexPath(config.webDir));
      res.json(describeInjection(index, usesTransform(config.injection), served, webPath));
    },
  } satisfies SubtitlesHandlers;
}
