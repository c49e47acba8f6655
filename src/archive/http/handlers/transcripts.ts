import type { Response } from 'express';
/**
 * Transcripts arrive with the transcription work; this build runs with transcription off. The status
 * says so, requests answer 409 'Transcription is off', and lists answer 404 'Media not found'. Every
 * route keeps its access rules, no-download refusal included.
 */
import { conflict, DOWNLOADS_DISABLED, forbidden, notFound } from '../../domain/errors';
import { deps, principal } from '../context';
import type { Handler } from './types';

const OFF = 'Transcription is off';

function refuseNoDownload(res: Response): void {
  if (principal(res).noDownload) throw forbidden(DOWNLOADS_DISABLED);
}

export const getTranscriptionStatus: Handler<'getTranscriptionStatus'> = async (req, res) => {
  const d = deps(req);
  const [name, version] = await Promise.all([
    d.store.getSetting('transcription_server_name'),
    d.store.getSetting('transcription_server_version'),
  ]);
  res.json({
    enabled: false,
    configured: d.config.transcription.configured,
    server_name: name,
    server_version: version,
  });
};

export const listMediaTranscripts: Handler<'listMediaTranscripts'> = async (_req, res) => {
  refuseNoDownload(res);
  throw notFound('Media not found');
};

export const requestMediaTranscript: Handler<'requestMediaTranscript'> = async (_req, res) => {
  refuseNoDownload(res);
  throw conflict(OFF);
};

export const listStoredMediaTranscripts: Handler<'listStoredMediaTranscripts'> = async (_req, res) => {
  refuseNoDownload(res);
  throw notFound('Media not found');
};

export const requestStoredMediaTranscript: Handler<'requestStoredMediaTranscript'> = async (_req, res) => {
  refuseNoDownload(res);
  throw conflict(OFF);
};
