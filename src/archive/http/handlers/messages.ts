import { notFound } from '../../domain/errors';
import { messageListQuery } from '../../domain/messages';
import { parseDay, requireTimeZone } from '../../domain/time';
import { chat, deps, messageView } from '../context';
import type { Handler } from './types';

export const listMessages: Handler<'listMessages'> = async (req, res) => {
  const query = messageListQuery(req.query, messageView(req, res));
  res.json(await deps(req).store.listMessages(chat(res).key, query));
};

export const listMessageVersions: Handler<'listMessageVersions'> = async (req, res) => {
  const { limit = 100 } = req.query;
  res.json(await deps(req).store.listMessageVersions(chat(res).key, req.params.message_id, limit));
};

export const listPinnedMessages: Handler<'listPinnedMessages'> = async (req, res) => {
  res.json(await deps(req).store.listPinnedMessages(chat(res).key, messageView(req, res)));
};

export const getMessageByDate: Handler<'getMessageByDate'> = async (req, res) => {
  const d = deps(req);
  const { date, timezone = d.config.timezone, topic_id } = req.query;
  parseDay(date);
  const message = await d.store.findMessageByDate(
    chat(res).key,
    { date, timezone: requireTimeZone(timezone), ...(topic_id !== undefined && { topicId: topic_id }) },
    messageView(req, res),
  );
  if (!message) throw notFound('No messages on or after this date');
  res.json(message);
};

export const listMessageDates: Handler<'listMessageDates'> = async (req, res) => {
  const { month, timezone, topic_id } = req.query;
  const dates = await deps(req).store.listMessageDates(chat(res).key, {
    month,
    timezone: requireTimeZone(timezone),
    ...(topic_id !== undefined && { topicId: topic_id }),
  });
  res.json({ month, timezone, topic_id: topic_id ?? null, dates });
};

export const listTopics: Handler<'listTopics'> = async (req, res) => {
  res.json({ topics: await deps(req).store.listTopics(chat(res).key) });
};
