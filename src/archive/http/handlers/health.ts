import { refreshFigures } from '../../domain/admin';
import { archiveStats } from '../../domain/stats';
import { actor, adminDeps, visibility } from '../context';
import type { ArchiveWiring } from '../wiring';
import type { ArchiveHandlers } from './types';

export function healthHandlers(wiring: ArchiveWiring) {
  return {
    getHealth: async (_req, res) => {
      // Healthy only when the viewer can serve: an orchestrator routes to it then.
      const degraded = (database: 'unreachable' | 'no_schema' | 'connected', reason: string) =>
        res.status(503).json({ status: 'degraded', database, reason });
      if (!(await wiring.store.probe())) return degraded('unreachable', 'the database cannot be reached');
      if ((await wiring.store.schemaRevision()) === 0) {
        return degraded('no_schema', 'the database has no schema: run `archive-cli migrate`');
      }
      if (!wiring.modes.configured) {
        return degraded(
          'connected',
          'no login mode is configured: set VIEWER_USERNAME and VIEWER_PASSWORD, AUTH_PROXY_HEADER or ALLOW_ANONYMOUS_VIEWER',
        );
      }
      res.json({ status: 'ok', database: 'connected' });
    },
    getStats: async (_req, res) => {
      res.json(await archiveStats(wiring.store, wiring.config, visibility(wiring, res)));
    },
    getStatus: async (_req, res) => {
      const status = await wiring.store.getArchiveStatus({
        maxDownloadAttempts: wiring.config.mediaMaxDownloadAttempts,
      });
      res.setHeader('Cache-Control', 'private, no-store');
      res.json(status);
    },
    refreshStats: async (req, res) => {
      await refreshFigures(adminDeps(wiring), actor(wiring, req, res));
      wiring.chatStats.clear();
      res.json(await archiveStats(wiring.store, wiring.config, visibility(wiring, res)));
    },
  } satisfies ArchiveHandlers;
}
