import { refreshFigures } from '../../domain/admin';
import { archiveStats } from '../../domain/stats';
import { actor, adminDeps, deps, visibility } from '../context';
import type { Handler } from './types';

export const getHealth: Handler<'getHealth'> = async (req, res) => {
  if (await deps(req).store.probe()) {
    res.json({ status: 'ok', database: 'connected' });
    return;
  }
  res.status(503).json({ status: 'degraded', database: 'unreachable' });
};

export const getStats: Handler<'getStats'> = async (req, res) => {
  const d = deps(req);
  res.json(await archiveStats(d.store, d.config, visibility(req, res)));
};

export const getStatus: Handler<'getStatus'> = async (req, res) => {
  const d = deps(req);
  const status = await d.store.getArchiveStatus({ maxDownloadAttempts: d.config.mediaMaxDownloadAttempts });
  res.setHeader('Cache-Control', 'private, no-store');
  res.json(status);
};

export const refreshStats: Handler<'refreshStats'> = async (req, res) => {
  const d = deps(req);
  await refreshFigures(adminDeps(req), actor(req, res));
  d.chatStats.clear();
  res.json(await archiveStats(d.store, d.config, visibility(req, res)));
};
