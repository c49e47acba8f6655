import type { Response } from 'express';
import { invalid } from '../../domain/errors';
import { type LiveEventType, missingField, type WireEvent } from '../../live/events';
import { rawBody, verifiedDelivery } from '../context';
import type { ArchiveWiring } from '../wiring';
import type { ArchiveHandlers } from './types';

export function internalHandlers(wiring: ArchiveWiring) {
  return {
    /**
     * From the backup in SQLite mode (callers are checked by the access guard, see internal-access.ts): the
     * event goes onto this viewer's bus, or in PostgreSQL mode to every viewer through the database.
     */
    pushInternalUpdate: async (_req, res) => {
      const body = rawBody(res) as WireEvent;
      const missing = missingField(body.type as LiveEventType, body.data);
      if (missing) throw invalid(`data: missing field ${missing} for ${body.type}`);
      await wiring.live.publisher.publish({
        type: body.type,
        chat_id: body.chat_id,
        account_id: body.account_id ?? null,
        data: body.data,
      });
      res.json({ status: 'ok' });
    },
    /** Verified by transcription-callback.ts before validation; stored once per `webhook-id`. */
    receiveTranscriptionCallback: async (_req, res) => {
      await wiring.live.transcription.receive(verifiedDelivery(res));
      (res as Response).status(204).end();
    },
  } satisfies ArchiveHandlers;
}
