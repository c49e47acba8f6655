import { notFound } from '../../domain/errors';
import { messageListQuery } from '../../domain/messages';
import { presentMessages } from '../../domain/present';
import { parseDay, requireTimeZone } from '../../domain/time';
import { audience, chat, messageView } from '../context';
import type { ArchiveWiring } from '../wiring';
import type { ArchiveHandlers } from './types';

export function messagesHandlers(wiring: ArchiveWiring) {
  return {
    listMessages: async (req, res) => {
      const query = messageListQuery(req.query, messageView(wiring, res));
      const { key } = chat(res);
      const messages = await wiring.store.listMessages(key, query);
      res.json(await presentMessages(messages, key, audience(wiring, res)));
    },
    listMessageVersions: async (req, res) => {
      const { limit = 100 } = req.query;
      res.json(await wiring.store.listMessageVersions(chat(res).key, req.params.message_id, limit));
    },
    listPinnedMessages: async (_req, res) => {
      const { key } = chat(res);
      const messages = await wiring.store.listPinnedMessages(key, messageView(wiring, res));
      res.json(await presentMessages(messages, key, audience(wiring, res)));
    },
    getMessageByDate: async (req, res) => {
      const { date, timezone = wiring.config.timezone, topic_id } = req.query;
      parseDay(date);
      const { key } = chat(res);
      const message = await wiring.store.findMessageByDate(
        key,
        { date, timezone: requireTimeZone(timezone), ...(topic_id !== undefined && { topicId: topic_id }) },
        messageView(wiring, res),
      );
      if (!message) throw notFound('No messages on or after this date');
      const [shown] = await presentMessages([message], key, audience(wiring, res));
      res.json(shown);
    },
    listMessageDates: async (req, res) => {
      const { month, timezone, topic_id } = req.query;
      const dates = await wiring.store.listMessageDates(chat(res).key, {
        month,
        timezone: requireTimeZone(timezone),
        ...(topic_id !== undefined && { topicId: topic_id }),
      });
      res.json({ month, timezone, topic_id: topic_id ?? null, dates });
    },
    listTopics: async (_req, res) => {
      res.json({ topics: await wiring.store.listTopics(chat(res).key) });
    },
  } satisfies ArchiveHandlers;
}
