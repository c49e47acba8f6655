import { type Handler, services } from '../services';

export const getServerConfiguration: Handler<'getServerConfiguration'> = (req, res) => {
  res.json({ EnableLegacyAuthorization: services(req).settings.legacy.enabled });
};

export const updateServerConfiguration: Handler<'updateServerConfiguration'> = async (req, res) => {
  await services(req).settings.legacy.set(req.body.EnableLegacyAuthorization);
  req.log.info({ enabled: req.body.EnableLegacyAuthorization }, 'legacy authorization switched');
  res.status(204).end();
};
