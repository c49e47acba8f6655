import type { SubtitlesHandlers, SubtitlesWiring } from '../wiring';

export function queueHandlers(wiring: SubtitlesWiring) {
  return {
    getQueue: (_req, res) => {
      res.json(wiring.queue.status());
    },
    enqueueQueueItem: async (req, res) => {
      const result = await wiring.queue.enqueue(req.body);
      res.status(202).json(result);
    },
    scanLibrary: async (req, res) => {
      const { queue, config } = wiring;
      const result = await queue.scan(req.body?.language ?? config.defaultLanguage);
      res.status(202).json(result);
    },
  } satisfies SubtitlesHandlers;
}
