/**
 * Transcripts of audio and video items, by chat ref and media key or by storage media id. Every route
 * but the status refuses no-download logins; requests queue work for the sender and never call out.
 */

import type { Response } from 'express';
import { DOWNLOADS_DISABLED, forbidden, notFound } from '../../domain/errors';
import type { TranscriptMedia } from '../../store/store';
import { chat, principal, visibility } from '../context';
import type { ArchiveWiring } from '../wiring';
import type { ArchiveHandlers } from './types';

const MEDIA_NOT_FOUND = 'Media not found';

function refuseNoDownload(res: Response): void {
  if (principal(res).noDownload) throw forbidden(DOWNLOADS_DISABLED);
}

// biome-ignore lint/suspicious/noExplicitAny: shared by the typed handlers below.
async function mediaByKey(wiring: ArchiveWiring, req: any, res: Response): Promise<TranscriptMedia> {
  refuseNoDownload(res);
  const media = await wiring.store.findMediaByKey(chat(res).key, String(req.params.media_key));
  if (!media) throw notFound(MEDIA_NOT_FOUND);
  return media;
}

// biome-ignore lint/suspicious/noExplicitAny: as above.
async function mediaByStorageId(wiring: ArchiveWiring, req: any, res: Response): Promise<TranscriptMedia> {
  refuseNoDownload(res);
  const vis = visibility(wiring, res);
  for (const media of await wiring.store.findMediaByStorageId(String(req.params.media_id))) {
    if (await wiring.store.findChat(vis, media.ref)) return media;
  }
  throw notFound(MEDIA_NOT_FOUND);
}

export function transcriptsHandlers(wiring: ArchiveWiring) {
  return {
    getTranscriptionStatus: async (_req, res) => {
      res.json(await wiring.live.transcription.status());
    },
    listMediaTranscripts: async (req, res) => {
      const media = await mediaByKey(wiring, req, res as Response);
      res.json(await wiring.live.transcription.list(media));
    },
    requestMediaTranscript: async (req, res) => {
      const media = await mediaByKey(wiring, req, res as Response);
      const { transcript, created } = await wiring.live.transcription.request(principal(res), media);
      res.status(created ? 201 : 200).json(transcript);
    },
    listStoredMediaTranscripts: async (req, res) => {
      const media = await mediaByStorageId(wiring, req, res as Response);
      res.json(await wiring.live.transcription.list(media));
    },
    requestStoredMediaTranscript: async (req, res) => {
      const media = await mediaByStorageId(wiring, req, res as Response);
      const { transcript, created } = await wiring.live.transcription.request(principal(res), media);
      res.status(created ? 201 : 200).json(transcript);
    },
  } satisfies ArchiveHandlers;
}
