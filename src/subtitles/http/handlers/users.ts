import { signIn } from '../../domain/accounts';
import { parseAuthorization } from '../../domain/credentials';
import { type Handler, services } from '../services';

export const authenticateUserByName: Handler<'authenticateUserByName'> = async (req, res) => {
  const { store, settings } = services(req);
  const client = parseAuthorization(req.get('authorization')) ?? {};
  const session = await signIn(
    store,
    { name: req.body.Username, password: req.body.Pw },
    { client: client.Client ?? null, device: client.Device ?? null, deviceId: client.DeviceId ?? null },
  );
  if (!session) {
    res.status(401).end();
    return;
  }
  const { user, accessToken } = session;
  res.json({
    AccessToken: accessToken,
    User: {
      Name: user.name,
      Id: user.id,
      ServerId: settings.serverId,
      HasPassword: user.hasPassword,
      Policy: { IsAdministrator: user.isAdmin },
    },
    ServerId: settings.serverId,
  });
};
