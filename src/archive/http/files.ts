import type { Response } from 'express';
import { MEDIA_NOT_FOUND, notFound } from '../domain/errors';

export interface SendOptions {
  cacheControl: string;
  contentType: string;
  contentDisposition?: string;
}

/**
 * Sends a file the domain found inside the backup folder, with ranges (206, 416, `Accept-Ranges`) and
 * validators (`ETag`, `Last-Modified`, 304) handled by Express's file sender. A file that vanished in
 * between is the usual 404.
 */
export function sendArchivedFile(res: Response, file: string, options: SendOptions): Promise<void> {
  res.setHeader('Cache-Control', options.cacheControl);
  res.setHeader('Content-Type', options.contentType);
  if (options.contentDisposition) res.setHeader('Content-Disposition', options.contentDisposition);
  return new Promise((resolve, reject) => {
    res.sendFile(
      file,
      { cacheControl: false, dotfiles: 'allow', acceptRanges: true, etag: true, lastModified: true },
      (err) => {
        const status = (err as { status?: number } | undefined)?.status;
        if (!err || res.headersSent) resolve();
        else if (status === 416) {
          // The file sender set `Content-Range: bytes */<size>` already.
          res.status(416).json({ detail: 'Range not satisfiable' });
          resolve();
        } else if (
          (err as { status?: number }).status === 404 ||
          (err as { code?: string }).code === 'ENOENT'
        )
          reject(notFound(MEDIA_NOT_FOUND));
        else reject(err);
      },
    );
  });
}
