import { notFound } from '../../domain/errors';
import type { Handler } from './types';

/**
 * From the backup in SQLite mode (callers are checked by the access guard, see internal-access.ts). Live
 * updates reach WebSocket subscribers once the WebSocket arrives; until then there is nobody to relay to,
 * so an accepted event is dropped, as the document allows for a chat no subscriber may see.
 */
export const pushInternalUpdate: Handler<'pushInternalUpdate'> = async (_req, res) => {
  res.json({ status: 'ok' });
};

/**
 * Exists only when transcription is on with a `whsec_` secret; this build runs with transcription off,
 * so the route answers as the document says for that case.
 */
export const receiveTranscriptionCallback: Handler<'receiveTranscriptionCallback'> = async () => {
  throw notFound('Not Found');
};
