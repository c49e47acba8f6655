// The archive store's shared suites on PostgreSQL, and what the planner makes of its search statements.
import { describe, expect, it } from 'vitest';
import { driverOf } from '../archive-store';
import { liveQueryCases } from '../live-queries.cases';
import { sql } from '../sql';
import { archiveStoreCases } from '../store.cases';
import { openTestStore } from '../test-databases';
import { POSTGRES_CAPABILITIES } from './capabilities';

archiveStoreCases('postgresql');
liveQueryCases('postgresql');

describe('the search planner on PostgreSQL', () => {
  it('reaches a word with few hits through the text index, not by walking the archive newest first', async () => {
    const t = await openTestStore('postgresql', { seed: false });
    try {
      const db = driverOf(t.db);
      // 60,000 messages of three words each out of 200, every word in about 1.5 % of them; "quokka" is
      // in 6. The default statistics leave it out (too rare to list), and a word not listed is estimated
      // at half the rarest listed one: 450 messages, cheaper (says the planner) to find by walking the
      // archive newest first; with migration 006's statistics it is listed with its own 6.
      await db.exec(`
        INSERT INTO accounts (id, label) VALUES (1, 'planner');
        INSERT INTO chat_refs (ref, account_id, chat_id) VALUES ('plannerplannerplanner1', 1, 1);
        INSERT INTO chats (account_id, id, ref, type, title) VALUES (1, 1, 'plannerplannerplanner1', 'group', 'Planner');
        WITH vocabulary AS (
          SELECT array_agg('w' || substr(md5(k::text), 1, 8) ORDER BY k) AS w FROM generate_series(1, 200) AS k)
        INSERT INTO messages (pk, account_id, chat_id, id, date, text)
          SELECT n, 1, 1, n, timestamptz '2024-01-01' + n * interval '1 second',
                 w[n % 200 + 1] || ' ' || w[(n * 7) % 200 + 1] || ' ' || w[(n * 13 + 5) % 200 + 1]
                   || CASE WHEN n % 10000 = 0 THEN ' quokka' ELSE '' END
            FROM vocabulary, generate_series(1, 60000) AS n;
        ANALYZE messages;`);
      const common = String((await db.all(sql`SELECT 'w' || substr(md5('1'), 1, 8) AS word`))[0]?.word);
      const plan = async (word: string) => {
        const match = POSTGRES_CAPABILITIES.matchMessageText([word], true);
        const rows = await db.all(sql`EXPLAIN (FORMAT JSON) SELECT m.pk FROM ${match.from}
          WHERE ${match.where} ${match.newestFirst} LIMIT 21 OFFSET 0`);
        return JSON.stringify(rows[0]);
      };
      expect(await plan('quokka')).toContain('idx_messages_text_search');
      // A common word's newest matches are still found by walking the archive's order.
      expect(await plan(common)).toContain('uq_messages_pk');
    } finally {
      await t.close();
    }
  });
});
