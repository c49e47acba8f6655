import type { Services, SubtitlesHandlers } from '../services';

export function queueHandlers(services: Services) {
  return {
    getQueue: (_req, res) => {
      res.json(services.queue.status());
    },
    enqueueQueueItem: async (req, res) => {
      const result = await services.queue.enqueue(req.body);
      res.status(202).json(result);
    },
    scanLibrary: async (req, res) => {
      const { queue, config } = services;
      const result = await queue.scan(req.body?.language ?? config.defaultLanguage);
      res.status(202).json(result);
    },
  } satisfies SubtitlesHandlers;
}
