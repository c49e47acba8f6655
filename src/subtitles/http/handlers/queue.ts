import { type Handler, services } from '../services';

export const getQueue: Handler<'getQueue'> = (req, res) => {
  res.json(services(req).queue.status());
};

export const enqueueQueueItem: Handler<'enqueueQueueItem'> = async (req, res) => {
  const result = await services(req).queue.enqueue(req.body);
  res.status(202).json(result);
};

export const scanLibrary: Handler<'scanLibrary'> = async (req, res) => {
  const { queue, config } = services(req);
  const result = await queue.scan(req.body?.language ?? config.defaultLanguage);
  res.status(202).json(result);
};
