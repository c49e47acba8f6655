import type { Transcript } from './api';

/**
 * A message's transcripts as the page shows them when the message is read again: the server's, and before
 * them any the reader asked for that the answer does not hold yet (the page was read before the request
 * landed), so a queued request does not vanish from the page while it waits.
 */
export function keepAsked(current: readonly Transcript[], fresh: readonly Transcript[]): Transcript[] {
  const known = new Set(fresh.map((t) => t.id));
  const asked = current.filter((t) => !known.has(t.id) && (t.status === 'queued' || t.status === 'running'));
  return [...asked, ...fresh];
}
