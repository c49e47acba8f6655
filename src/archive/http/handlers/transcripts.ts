/**
 * Transcripts of audio and video items, by chat ref and media key or by storage media id. Every route
 * but the status refuses no-download logins; requests queue work for the sender and never call out.
 */
import type { Response } from 'express';
import { DOWNLOADS_DISABLED, forbidden, notFound } from '../../domain/errors';
import type { TranscriptMedia } from '../../store/store';
import { chat, deps, principal, visibility } from '../context';
import type { Handler } from './types';

const MEDIA_NOT_FOUND = 'Media not found';

function refuseNoDownload(res: Response): void {
  if (principal(res).noDownload) throw forbidden(DOWNLOADS_DISABLED);
}

// biome-ignore lint/suspicious/noExplicitAny: shared by the typed handlers below.
async function mediaByKey(req: any, res: Response): Promise<TranscriptMedia> {
  refuseNoDownload(res);
  const media = await deps(req).store.findMediaByKey(chat(res).key, String(req.params.media_key));
  if (!media) throw notFound(MEDIA_NOT_FOUND);
  return media;
}

// biome-ignore lint/suspicious/noExplicitAny: as above.
async function mediaByStorageId(req: any, res: Response): Promise<TranscriptMedia> {
  refuseNoDownload(res);
  const d = deps(req);
  const vis = visibility(req, res);
  for (const media of await d.store.findMediaByStorageId(String(req.params.media_id))) {
    if (await d.store.findChat(vis, media.ref)) return media;
  }
  throw notFound(MEDIA_NOT_FOUND);
}

export const getTranscriptionStatus: Handler<'getTranscriptionStatus'> = async (req, res) => {
  res.json(await deps(req).live.transcription.status());
};

export const listMediaTranscripts: Handler<'listMediaTranscripts'> = async (req, res) => {
  const media = await mediaByKey(req, res as Response);
  res.json(await deps(req).live.transcription.list(media));
};

export const requestMediaTranscript: Handler<'requestMediaTranscript'> = async (req, res) => {
  const media = await mediaByKey(req, res as Response);
  const { transcript, created } = await deps(req).live.transcription.request(principal(res), media);
  res.status(created ? 201 : 200).json(transcript);
};

export const listStoredMediaTranscripts: Handler<'listStoredMediaTranscripts'> = async (req, res) => {
  const media = await mediaByStorageId(req, res as Response);
  res.json(await deps(req).live.transcription.list(media));
};

export const requestStoredMediaTranscript: Handler<'requestStoredMediaTranscript'> = async (req, res) => {
  const media = await mediaByStorageId(req, res as Response);
  const { transcript, created } = await deps(req).live.transcription.request(principal(res), media);
  res.status(created ? 201 : 200).json(transcript);
};
