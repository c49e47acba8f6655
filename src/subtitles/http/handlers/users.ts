import { clientIp } from '../../../common/http/client';
import { clientInfo, signIn, signOut } from '../../domain/accounts';
import { authorizationInfo } from '../../domain/credentials';
import { userDto } from '../../domain/web-client';
import { principalOf } from '../gate';
import type { SubtitlesHandlers, SubtitlesWiring } from '../wiring';

export function usersHandlers(wiring: SubtitlesWiring) {
  return {
    authenticateUserByName: async (req, res) => {
      const { store, settings, signIns } = wiring;
      const client = clientInfo(authorizationInfo((name) => req.get(name), settings.legacy.enabled));
      const address = clientIp(req, { trustProxyHeaders: false });
      const name = req.body.Username;
      const wait = signIns.attempt(address, name);
      if (wait > 0) {
        req.log.warn({ retryAfter: wait }, 'sign-in refused: too many failures from this client');
        res.setHeader('Retry-After', String(wait));
        res.status(429).end();
        return;
      }
      const signedIn = await signIn(store, { name, password: req.body.Pw }, client);
      if (!signedIn) {
        res.status(401).end();
        return;
      }
      signIns.succeeded(address, name);
      const { user, accessToken, session, ended } = signedIn;
      const serverId = settings.serverId;
      req.log.info({ user: user.id, session: session.id, endedOnDevice: ended }, 'signed in');
      res.json({
        AccessToken: accessToken,
        User: userDto(user, serverId, session.at),
        SessionInfo: {
          Id: session.id,
          UserId: user.id,
          UserName: user.name,
          Client: session.client.client,
          DeviceId: session.client.deviceId,
          DeviceName: session.client.device,
          ApplicationVersion: session.client.version,
          LastActivityDate: session.at,
          IsActive: true,
          ServerId: serverId,
        },
        ServerId: serverId,
      });
    },
    logoutSession: async (req, res) => {
      const principal = principalOf(res);
      if (principal) await signOut(wiring.store, principal);
      req.log.info({ kind: principal?.kind }, 'signed out');
      res.status(204).end();
    },
  } satisfies SubtitlesHandlers;
}
