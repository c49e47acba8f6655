import { notFound } from '../../domain/errors';
import { messageListQuery } from '../../domain/messages';
import { presentMessages } from '../../domain/present';
import { parseDay, requireTimeZone } from '../../domain/time';
import type { ArchiveDeps } from '../context';
import { audience, chat, messageView } from '../context';
import type { ArchiveHandlers } from './types';

export function messagesHandlers(d: ArchiveDeps) {
  return {
    listMessages: async (req, res) => {
      const query = messageListQuery(req.query, messageView(d, res));
      const { key } = chat(res);
      const messages = await d.store.listMessages(key, query);
      res.json(await presentMessages(messages, key, audience(d, res)));
    },
    listMessageVersions: async (req, res) => {
      const { limit = 100 } = req.query;
      res.json(await d.store.listMessageVersions(chat(res).key, req.params.message_id, limit));
    },
    listPinnedMessages: async (_req, res) => {
      const { key } = chat(res);
      const messages = await d.store.listPinnedMessages(key, messageView(d, res));
      res.json(await presentMessages(messages, key, audience(d, res)));
    },
    getMessageByDate: async (req, res) => {
      const { date, timezone = d.config.timezone, topic_id } = req.query;
      parseDay(date);
      const { key } = chat(res);
      const message = await d.store.findMessageByDate(
        key,
        { date, timezone: requireTimeZone(timezone), ...(topic_id !== undefined && { topicId: topic_id }) },
        messageView(d, res),
      );
      if (!message) throw notFound('No messages on or after this date');
      const [shown] = await presentMessages([message], key, audience(d, res));
      res.json(shown);
    },
    listMessageDates: async (req, res) => {
      const { month, timezone, topic_id } = req.query;
      const dates = await d.store.listMessageDates(chat(res).key, {
        month,
        timezone: requireTimeZone(timezone),
        ...(topic_id !== undefined && { topicId: topic_id }),
      });
      res.json({ month, timezone, topic_id: topic_id ?? null, dates });
    },
    listTopics: async (_req, res) => {
      res.json({ topics: await d.store.listTopics(chat(res).key) });
    },
  } satisfies ArchiveHandlers;
}
