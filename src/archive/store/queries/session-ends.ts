/** Ending sessions and the push subscriptions of their users, inside the callers' transactions. */
import { list, type Sql, sql } from '../sql';
import type { EndedSession, SessionRole } from '../types';
import type { Db } from './common';

export async function deletePushSubscriptionsOfUsers(db: Db, usernames: string[]): Promise<number> {
  if (usernames.length === 0) return 0;
  const { changes } = await db.run(
    sql`DELETE FROM push_subscriptions WHERE username IN ${list([...new Set(usernames)])}`,
  );
  return changes;
}

const toEnded = (r: Record<string, unknown>): EndedSession => ({
  id: String(r.id),
  username: String(r.username),
  role: r.role as SessionRole,
});

export async function endSessionsWhere(db: Db, where: Sql): Promise<EndedSession[]> {
  const rows = await db.all(sql`DELETE FROM viewer_sessions WHERE ${where} RETURNING id, username, role`);
  return rows.map(toEnded);
}

export async function endTokenSessions(tx: Db, tokenId: number): Promise<EndedSession[]> {
  const ended = await endSessionsWhere(tx, sql`source_token_id = ${tokenId}`);
  await deletePushSubscriptionsOfUsers(
    tx,
    ended.map((e) => e.username),
  );
  return ended;
}
