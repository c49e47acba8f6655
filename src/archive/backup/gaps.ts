/**
 * Gap-fill: holes in a chat's archived message ids of at least the threshold are asked of the platform
 * again. A hole before the chat's earliest archived message is reported but never filled.
 */

import type { BackupState } from '../store/backup-state';
import type { ArchiveDatabase } from '../store/store';
import { toNewMessage } from './engine';
import type { PlatformSession } from './platform';

export interface Gap {
  after: number;
  before: number;
}

/** Holes of at least `threshold` missing ids between consecutive archived ids. */
export function findGaps(ids: number[], threshold: number): Gap[] {
  const gaps: Gap[] = [];
  for (let i = 1; i < ids.length; i++) {
    const after = ids[i - 1] as number;
    const before = ids[i] as number;
    if (before - after - 1 >= threshold) gaps.push({ after, before });
  }
  return gaps;
}

export interface ChatGapReport {
  chatId: number;
  gaps: number;
  recovered: number;
  /** Ids missing before the earliest archived message (reported, never filled). */
  leadingHole: number;
}

const BATCH = 100;

export async function fillChatGaps(
  deps: { store: ArchiveDatabase; state: BackupState; session: PlatformSession; accountId: number },
  chatId: number,
  threshold: number,
): Promise<ChatGapReport> {
  const ids = await deps.state.messageIds(deps.accountId, chatId);
  const gaps = findGaps(ids, threshold);
  let recovered = 0;
  for (const gap of gaps) {
    for (let from = gap.after + 1; from < gap.before; from += BATCH) {
      const wanted = Array.from({ length: Math.min(BATCH, gap.before - from) }, (_, i) => from + i);
      const found = (await deps.session.messagesByIds(chatId, wanted)).filter((m) => m !== null);
      if (found.length === 0) continue;
      await deps.store.upsertMessages(found.map((m) => toNewMessage(deps.accountId, m)));
      recovered += found.length;
    }
  }
  const first = ids[0];
  return {
    chatId,
    gaps: gaps.length,
    recovered,
    leadingHole: first !== undefined && first > 1 ? first - 1 : 0,
  };
}
