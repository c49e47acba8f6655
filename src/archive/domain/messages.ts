import type { MessageListQuery, MessageView } from '../store/store';
import { invalid } from './errors';
import { parseApiTimestamp } from './time';

export interface MessagePageParams {
  limit?: number;
  offset?: number;
  search?: string;
  topic_id?: number;
  before_date?: string;
  before_id?: number;
  after_id?: number;
}

/**
 * The messages route's paging: offset from the newest, or one cursor. `before_date` needs `before_id`
 * (ties on the date are broken by the id), and `after_id` does not combine with a `before_` cursor.
 */
export function messageListQuery(params: MessagePageParams, view: MessageView): MessageListQuery {
  if (params.before_date !== undefined && params.before_id === undefined) {
    throw invalid('before_date needs before_id (the id of the last message received)');
  }
  if (params.after_id !== undefined && (params.before_id !== undefined || params.before_date !== undefined)) {
    throw invalid('after_id cannot be combined with before_id or before_date');
  }
  return {
    ...view,
    limit: params.limit ?? 50,
    offset: params.offset ?? 0,
    ...(params.search !== undefined && params.search !== '' && { search: params.search }),
    ...(params.topic_id !== undefined && { topicId: params.topic_id }),
    ...(params.before_date !== undefined && {
      beforeDate: parseApiTimestamp(params.before_date, 'before_date'),
    }),
    ...(params.before_id !== undefined && { beforeId: params.before_id }),
    ...(params.after_id !== undefined && { afterId: params.after_id }),
  };
}
