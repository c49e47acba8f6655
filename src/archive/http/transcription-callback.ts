/**
 * The body of the transcription callback operation, read by that operation's caller rule (app.ts, access.ts)
 * before the JSON parser: over 256 KiB is refused with 413 before the rest is read, and the Standard Webhooks
 * signature is checked over the exact bytes received. The verified JSON then goes through the document's validation like any body.
 */
import type { RequestHandler } from 'express';
import { writeContext } from '../../common/http/context';
import { ArchiveError } from '../domain/errors';
import { CALLBACK_LIMIT_BYTES } from '../live/transcription';
import { DELIVERY } from './context';
import { drainBody } from './internal-access';
import type { ArchiveWiring } from './wiring';

function tooLarge(res: Parameters<RequestHandler>[1]): void {
  res.setHeader('Connection', 'close');
  res.status(413).json({ detail: 'Payload too large' });
}

export const transcriptionCallbackBody =
  (wiring: ArchiveWiring): RequestHandler =>
  async (req, res, next) => {
    const transcription = wiring.live.transcription;
    if (!transcription.callbackEnabled) {
      // The route does not exist: answer once the body is drained, so the connection stays usable.
      await drainBody(req, CALLBACK_LIMIT_BYTES);
      throw new ArchiveError('not-found', 'Not Found');
    }
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > CALLBACK_LIMIT_BYTES) {
      tooLarge(res);
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const raw = await new Promise<string | null>((resolve, reject) => {
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > CALLBACK_LIMIT_BYTES) {
          req.removeAllListeners('data');
          req.resume();
          resolve(null);
          return;
        }
        chunks.push(chunk);
      });
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });
    if (raw === null) {
      tooLarge(res);
      return;
    }
    const delivery = transcription.verify(raw, req.headers);
    writeContext(res.req, DELIVERY, delivery);
    req.body = delivery.body;
    // Tells the JSON parser the body is already read.
    (req as { _body?: boolean })._body = true;
    next();
  };
