import { notFound } from '../../domain/errors';
import { messageListQuery } from '../../domain/messages';
import { presentMessages } from '../../domain/present';
import { parseDay, requireTimeZone } from '../../domain/time';
import { audience, chat, deps, messageView } from '../context';
import type { Handler } from './types';

export const listMessages: Handler<'listMessages'> = async (req, res) => {
  const query = messageListQuery(req.query, messageView(req, res));
  const { key } = chat(res);
  const messages = await deps(req).store.listMessages(key, query);
  res.json(await presentMessages(messages, key, audience(req, res)));
};

export const listMessageVersions: Handler<'listMessageVersions'> = async (req, res) => {
  const { limit = 100 } = req.query;
  res.json(await deps(req).store.listMessageVersions(chat(res).key, req.params.message_id, limit));
};

export const listPinnedMessages: Handler<'listPinnedMessages'> = async (req, res) => {
  const { key } = chat(res);
  const messages = await deps(req).store.listPinnedMessages(key, messageView(req, res));
  res.json(await presentMessages(messages, key, audience(req, res)));
};

export const getMessageByDate: Handler<'getMessageByDate'> = async (req, res) => {
  const d = deps(req);
  const { date, timezone = d.config.timezone, topic_id } = req.query;
  parseDay(date);
  const { key } = chat(res);
  const message = await d.store.findMessageByDate(
    key,
    { date, timezone: requireTimeZone(timezone), ...(topic_id !== undefined && { topicId: topic_id }) },
    messageView(req, res),
  );
  if (!message) throw notFound('No messages on or after this date');
  const [shown] = await presentMessages([message], key, audience(req, res));
  res.json(shown);
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
