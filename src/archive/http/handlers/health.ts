import { refreshFigures } from '../../domain/admin';
import { archiveStats } from '../../domain/stats';
import type { ArchiveDeps } from '../context';
import { actor, adminDeps, visibility } from '../context';
import type { ArchiveHandlers } from './types';

export function healthHandlers(d: ArchiveDeps) {
  return {
    getHealth: async (_req, res) => {
      if (await d.store.probe()) {
        res.json({ status: 'ok', database: 'connected' });
        return;
      }
      res.status(503).json({ status: 'degraded', database: 'unreachable' });
    },
    getStats: async (_req, res) => {
      res.json(await archiveStats(d.store, d.config, visibility(d, res)));
    },
    getStatus: async (_req, res) => {
      const status = await d.store.getArchiveStatus({
        maxDownloadAttempts: d.config.mediaMaxDownloadAttempts,
      });
      res.setHeader('Cache-Control', 'private, no-store');
      res.json(status);
    },
    refreshStats: async (req, res) => {
      await refreshFigures(adminDeps(d), actor(d, req, res));
      d.chatStats.clear();
      res.json(await archiveStats(d.store, d.config, visibility(d, res)));
    },
  } satisfies ArchiveHandlers;
}
