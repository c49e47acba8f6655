import type { Response } from 'express';
/**
 * Media routes. Serving files, thumbnails, avatars, the gallery and the open commands arrives with the
 * media work; until then each route keeps its access rules (login, chat entitlement, master, no-download)
 * and answers the documented "not found" of its kind.
 */
import { DOWNLOADS_DISABLED, forbidden, invalid, notFound } from '../../domain/errors';
import { principal } from '../context';
import type { Handler } from './types';

const MEDIA_NOT_FOUND = 'Media not found';
const AVATAR_NOT_FOUND = 'Avatar not found';

function refuseNoDownload(res: Response): void {
  if (principal(res).noDownload) throw forbidden(DOWNLOADS_DISABLED);
}

export const getMediaFile: Handler<'getMediaFile'> = async (_req, res) => {
  refuseNoDownload(res);
  throw notFound(MEDIA_NOT_FOUND);
};

export const getMediaThumbnail: Handler<'getMediaThumbnail'> = async (_req, res) => {
  refuseNoDownload(res);
  throw notFound(MEDIA_NOT_FOUND);
};

export const getChatAvatar: Handler<'getChatAvatar'> = async () => {
  throw notFound(AVATAR_NOT_FOUND);
};

export const getSenderAvatar: Handler<'getSenderAvatar'> = async () => {
  throw notFound(AVATAR_NOT_FOUND);
};

export const listChatMedia: Handler<'listChatMedia'> = async (req) => {
  if (req.query.before_id !== undefined && req.query.after_id !== undefined) {
    throw invalid('Send before_id or after_id, not both');
  }
  throw notFound(MEDIA_NOT_FOUND);
};

export const countChatMedia: Handler<'countChatMedia'> = async () => {
  throw notFound(MEDIA_NOT_FOUND);
};

export const openMedia: Handler<'openMedia'> = async () => {
  throw notFound('Not configured');
};

export const openMediaPath: Handler<'openMediaPath'> = async () => {
  throw notFound('Not configured');
};
