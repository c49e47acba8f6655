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
import { chat, deps, mediaDeps, principal } from '../context';
import { sendArchivedFile } from '../files';
import type { Handler } from './types';

const DAY_CACHE = 'private, max-age=86400';

function refuseNoDownload(res: Response): void {
  if (principal(res).noDownload) throw forbidden(DOWNLOADS_DISABLED);
}

export const getMediaFile: Handler<'getMediaFile'> = async (req, res) => {
  refuseNoDownload(res);
  const media = await findMediaFile(mediaDeps(req), chat(res).key, req.params.media_key);
  const kind = dispositionOf(media.mimeType, req.query.download === 1);
  await sendArchivedFile(res, media.path, {
    cacheControl: 'private',
    contentType: media.mimeType,
    contentDisposition: contentDisposition(kind, media.fileName),
  });
};

export const getMediaThumbnail: Handler<'getMediaThumbnail'> = async (req, res) => {
  refuseNoDownload(res);
  const { size, media_key } = req.params;
  const file = await findThumbnail(mediaDeps(req), chat(res).key, media_key, Number(size));
  await sendArchivedFile(res, file, { cacheControl: DAY_CACHE, contentType: 'image/webp' });
};

export const getChatAvatar: Handler<'getChatAvatar'> = async (req, res) => {
  const file = await findChatAvatar(mediaDeps(req), chat(res).key, req.query.photo_id);
  await sendArchivedFile(res, file, { cacheControl: DAY_CACHE, contentType: 'image/jpeg' });
};

export const getSenderAvatar: Handler<'getSenderAvatar'> = async (req, res) => {
  const file = await findSenderAvatar(mediaDeps(req), chat(res).key, Number(req.params.message_id));
  await sendArchivedFile(res, file, { cacheControl: DAY_CACHE, contentType: 'image/jpeg' });
};

export const listChatMedia: Handler<'listChatMedia'> = async (req, res) => {
  res.json(await listGallery(mediaDeps(req), chat(res).key, req.query, principal(res).noDownload));
};

export const countChatMedia: Handler<'countChatMedia'> = async (req, res) => {
  res.json(await deps(req).store.countMediaByType(chat(res).key));
};

export const openMedia: Handler<'openMedia'> = async (req, res) => {
  const command = deps(req).config.media.openCmd;
  res.json(await openWithCommand(mediaDeps(req), chat(res).key, req.params.media_key, command, true));
};

export const openMediaPath: Handler<'openMediaPath'> = async (req, res) => {
  const command = deps(req).config.media.openPathCmd;
  res.json(await openWithCommand(mediaDeps(req), chat(res).key, req.params.media_key, command, false));
};
