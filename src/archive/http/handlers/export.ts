import { DOWNLOADS_DISABLED, forbidden } from '../../domain/errors';
import { exportFileName, exportWindow, writeChatExport } from '../../domain/export';
import { contentDisposition } from '../../domain/media';
import { chat, principal } from '../context';
import type { ArchiveWiring } from '../wiring';
import type { ArchiveHandlers } from './types';

export function exportHandlers(wiring: ArchiveWiring) {
  return {
    /** Streams the export; once the head is sent a failure can only cut the body short (and is logged). */
    exportChat: async (req, res) => {
      if (principal(res).noDownload) throw forbidden(DOWNLOADS_DISABLED);
      const window = exportWindow(req.query);
      const found = chat(res);
      res.status(200);
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Disposition', contentDisposition('attachment', exportFileName(found.chat)));
      res.setHeader('Cache-Control', 'private, no-store');
      try {
        await writeChatExport(wiring.store, found, req.query, window, res);
        res.end();
      } catch (err) {
        wiring.logger.error({ err: (err as Error).message }, 'chat export cut short');
        res.destroy();
      }
    },
  } satisfies ArchiveHandlers;
}
