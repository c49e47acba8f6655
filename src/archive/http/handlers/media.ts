/** Media routes: files, thumbnails, avatars, the gallery, counts and the open commands. */

import type { Response } from 'express';
import { DOWNLOADS_DISABLED, forbidden } from '../../domain/errors';
import {
  contentDisposition,
  dispositionOf,
  findChatAvatar,
  findMediaFile,
  findSenderAvatar,
  findThumbnail,
  listGallery,
  openWithCommand,
} from '../../domain/media';
import { chat, mediaDeps, principal } from '../context';
import { sendArchivedFile } from '../files';
import type { ArchiveWiring } from '../wiring';
import type { ArchiveHandlers } from './types';

const DAY_CACHE = 'private, max-age=86400';

function refuseNoDownload(res: Response): void {
  if (principal(res).noDownload) throw forbidden(DOWNLOADS_DISABLED);
}

export function mediaHandlers(wiring: ArchiveWiring) {
  return {
    getMediaFile: async (req, res) => {
      refuseNoDownload(res);
      const media = await findMediaFile(mediaDeps(wiring), chat(res).key, req.params.media_key);
      const kind = dispositionOf(media.mimeType, req.query.download === 1);
      await sendArchivedFile(res, media.path, {
        cacheControl: 'private',
        contentType: media.mimeType,
        contentDisposition: contentDisposition(kind, media.fileName),
      });
    },
    getMediaThumbnail: async (req, res) => {
      refuseNoDownload(res);
      const { size, media_key } = req.params;
      const file = await findThumbnail(mediaDeps(wiring), chat(res).key, media_key, Number(size));
      await sendArchivedFile(res, file, { cacheControl: DAY_CACHE, contentType: 'image/webp' });
    },
    getChatAvatar: async (req, res) => {
      const file = await findChatAvatar(mediaDeps(wiring), chat(res).key, req.query.photo_id);
      await sendArchivedFile(res, file, { cacheControl: DAY_CACHE, contentType: 'image/jpeg' });
    },
    getSenderAvatar: async (req, res) => {
      const file = await findSenderAvatar(mediaDeps(wiring), chat(res).key, Number(req.params.message_id));
      await sendArchivedFile(res, file, { cacheControl: DAY_CACHE, contentType: 'image/jpeg' });
    },
    listChatMedia: async (req, res) => {
      res.json(await listGallery(mediaDeps(wiring), chat(res).key, req.query, principal(res).noDownload));
    },
    countChatMedia: async (_req, res) => {
      res.json(await wiring.store.countMediaByType(chat(res).key));
    },
    openMedia: async (req, res) => {
      const command = wiring.config.media.openCmd;
      res.json(await openWithCommand(mediaDeps(wiring), chat(res).key, req.params.media_key, command, true));
    },
    openMediaPath: async (req, res) => {
      const command = wiring.config.media.openPathCmd;
      res.json(await openWithCommand(mediaDeps(wiring), chat(res).key, req.params.media_key, command, false));
    },
  } satisfies ArchiveHandlers;
}
