import type { Response } from 'express';
import { ForbiddenError, InvalidInputError } from '../../domain/errors';
import {
  displayPreferences,
  endpointInfo,
  guidN,
  itemCounts,
  PLUGIN_ID,
  PLUGIN_VERSION,
  SETTINGS_PAGE,
  saveDisplayPreferences,
  systemStorage,
  userDto,
} from '../../domain/web-client';
import { principalOf } from '../gate';
import type { SubtitlesHandlers, SubtitlesWiring } from '../wiring';

/** Bytes sent at a time for the bitrate test (zeros). */
const ZEROS = Buffer.alloc(64 * 1024);

/**
 * Whose data a request reads: `userId` when given (another user's only for an administrator or an API
 * key), else the signed-in user. An API key names no user of its own.
 */
function subject(res: Pick<Response, 'req'>, userId: string | undefined): string {
  const principal = principalOf(res);
  const asked = userId === undefined ? undefined : guidN(userId);
  if (principal?.kind === 'session') {
    if (asked !== undefined && asked !== principal.userId && !principal.isAdmin) throw new ForbiddenError();
    return asked ?? principal.userId;
  }
  if (asked === undefined)
    throw new InvalidInputError('userId', 'an API key is no user: name the user with userId');
  return asked;
}

export function webClientHandlers(wiring: SubtitlesWiring) {
  const { config, store, settings } = wiring;
  return {
    getQuickConnectEnabled: (_req, res) => {
      res.json(false);
    },
    listPublicUsers: (_req, res) => {
      res.json([]);
    },
    getBrandingConfiguration: (_req, res) => {
      res.json({ LoginDisclaimer: null, CustomCss: null, SplashscreenEnabled: false });
    },
    postFullCapabilities: (_req, res) => {
      res.status(204).end();
    },
    getCurrentUser: async (_req, res) => {
      const principal = principalOf(res);
      if (principal?.kind !== 'session')
        throw new InvalidInputError('Authorization', 'an API key is no user');
      const user = await store.findUserById(principal.userId);
      if (!user) {
        res.status(404).end();
        return;
      }
      res.json(userDto(user, settings.serverId));
    },
    getUserById: async (req, res) => {
      const id = subject(res, req.params.userId);
      const user = await store.findUserById(id);
      if (!user) {
        res.status(404).end();
        return;
      }
      res.json(userDto(user, settings.serverId));
    },
    getDisplayPreferences: async (req, res) => {
      const userId = subject(res, req.query.userId);
      res.json(await displayPreferences(store, userId, req.params.displayPreferencesId, req.query.client));
    },
    updateDisplayPreferences: async (req, res) => {
      const userId = subject(res, req.query.userId);
      await saveDisplayPreferences(
        store,
        userId,
        req.params.displayPreferencesId,
        req.query.client,
        req.body as Record<string, unknown>,
      );
      res.status(204).end();
    },
    getEndpointInfo: (req, res) => {
      res.json(endpointInfo(req.socket.remoteAddress));
    },
    getBitrateTestBytes: (req, res) => {
      const size = req.query.Size ?? 102_400;
      res.status(200).type('application/octet-stream').setHeader('Content-Length', String(size));
      let left = size;
      const more = () => {
        while (left > 0) {
          const chunk = ZEROS.subarray(0, Math.min(left, ZEROS.length));
          left -= chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    },
    getUserViews: (req, res) => {
      // Whose views is checked as for their preferences; this host has none to show anyone.
      subject(res, req.query.userId);
      res.json({ Items: [], TotalRecordCount: 0, StartIndex: 0 });
    },
    getItemCounts: async (_req, res) => {
      res.json(await itemCounts(config.mediaDir));
    },
    listScheduledTasks: (_req, res) => {
      res.json([]);
    },
    listSessions: async (req, res) => {
      const within = req.query.activeWithinSeconds;
      const since = within === undefined ? null : new Date(Date.now() - within * 1000).toISOString();
      const sessions = await store.listSessions(since);
      res.json(
        sessions.map((s) => ({
          Id: s.id,
          UserId: s.userId,
          UserName: s.userName,
          Client: s.client ?? '',
          DeviceId: s.deviceId ?? '',
          DeviceName: s.device ?? '',
          ApplicationVersion: s.version ?? '',
          LastActivityDate: s.lastActivityAt,
          IsActive: true,
          ServerId: settings.serverId,
        })),
      );
    },
    getActivityLogEntries: (req, res) => {
      res.json({ Items: [], TotalRecordCount: 0, StartIndex: req.query.startIndex ?? 0 });
    },
    getSystemStorage: async (_req, res) => {
      res.json(await systemStorage(config));
    },
    listPlugins: (_req, res) => {
      res.json(
        config.pluginEnabled
          ? [
              {
                Name: config.pluginName,
                Version: PLUGIN_VERSION,
                ConfigurationFileName: null,
                Description: 'Generates subtitles for the media library with a speech-to-text engine.',
                Id: PLUGIN_ID,
                CanUninstall: false,
                HasImage: false,
                Status: 'Active' as const,
              },
            ]
          : [],
      );
    },
    listPackages: (_req, res) => {
      res.json([]);
    },
    listConfigurationPages: (req, res) => {
      const page = {
        Name: SETTINGS_PAGE,
        EnableInMainMenu: false,
        MenuSection: null,
        MenuIcon: null,
        DisplayName: config.pluginName,
        PluginId: PLUGIN_ID,
      };
      res.json(config.pluginEnabled && req.query.enableInMainMenu !== true ? [page] : []);
    },
    openSocket: (_req, _res) => {
      // A WebSocket upgrade never reaches here (the server's upgrade listener takes it): a plain request.
      throw new InvalidInputError('Upgrade', 'this address takes a WebSocket upgrade only');
    },
  } satisfies SubtitlesHandlers;
}
