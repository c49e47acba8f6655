/**
 * Chat export arrives with the export work. Until then the route keeps its rules (entitlement,
 * no-download refusal, the `from` < `to` check) and answers 404 'Not configured'.
 */
import { DOWNLOADS_DISABLED, forbidden, invalid, notFound } from '../../domain/errors';
import { parseApiTimestamp } from '../../domain/time';
import { principal } from '../context';
import type { Handler } from './types';

export const exportChat: Handler<'exportChat'> = async (req, res) => {
  if (principal(res).noDownload) throw forbidden(DOWNLOADS_DISABLED);
  const { from, to } = req.query;
  const start = from !== undefined ? parseApiTimestamp(from, 'from') : undefined;
  // A bare date as `to` includes that whole day.
  const dayAfter = to !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(to) ? 86_400_000 : 0;
  const end = to !== undefined ? parseApiTimestamp(to, 'to').getTime() + dayAfter : undefined;
  if (start && end !== undefined && start.getTime() >= end) throw invalid("'from' must be before 'to'");
  throw notFound('Not configured');
};
