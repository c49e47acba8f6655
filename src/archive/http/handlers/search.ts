import { CHAT_NOT_FOUND, invalid, notFound } from '../../domain/errors';
import { FileProbe, presentSearchResults } from '../../domain/present';
import { visibilityOf } from '../../domain/principal';
import { parseApiTimestamp } from '../../domain/time';
import { principal, visibility } from '../context';
import type { ArchiveWiring } from '../wiring';
import type { ArchiveHandlers } from './types';

export function searchHandlers(wiring: ArchiveWiring) {
  return {
    searchMessages: async (req, res) => {
      const { q, limit = 20, offset = 0 } = req.query;
      const page = await wiring.store.searchMessages(visibility(wiring, res), {
        query: q,
        limit,
        offset,
        includeTranscripts: !principal(res).noDownload,
      });
      const results = await presentSearchResults(page.results, new FileProbe(wiring.config.media.backupPath));
      res.json({ query: q, limit, offset, has_more: page.hasMore, indexed: page.indexed, results });
    },
    listTaggedMessages: async (req, res) => {
      const { scope = 'all', chat_ref, limit = 50, offset = 0 } = req.query;
      const vis = visibilityOf(principal(res), wiring.config.displayChatIds);
      let chatKey: Awaited<ReturnType<typeof wiring.store.findChat>> = null;
      if (scope === 'chat') {
        if (!chat_ref) throw invalid('chat_ref is required with scope=chat');
        chatKey = await wiring.store.findChat(vis, chat_ref);
        if (!chatKey) throw notFound(CHAT_NOT_FOUND);
      }
      const page = await wiring.store.listTaggedMessages(vis, {
        tag: req.params.tag,
        scope,
        ...(chatKey && { chat: chatKey.key }),
        limit,
        offset,
      });
      const results = await presentSearchResults(page.results, new FileProbe(wiring.config.media.backupPath));
      res.json({ tag: req.params.tag, results, has_more: page.hasMore, truncated: page.truncated });
    },
    listChanges: async (req, res) => {
      const { since, before, limit = 50 } = req.query;
      const page = await wiring.store.listChanges(visibility(wiring, res), {
        ...(since !== undefined && { since: parseApiTimestamp(since, 'since') }),
        ...(before !== undefined && { before: parseApiTimestamp(before, 'before') }),
        limit,
        includeTranscripts: !principal(res).noDownload,
      });
      res.setHeader('Cache-Control', 'private, no-store');
      res.json({ changes: page.changes, next_before: page.nextBefore });
    },
  } satisfies ArchiveHandlers;
}
