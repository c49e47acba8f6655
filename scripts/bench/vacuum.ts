import pg from 'pg';

/**
 * `VACUUM ANALYZE` on a PostgreSQL database: fresh planner statistics and visibility map, as autovacuum
 * leaves them soon after a feed's replace (it deletes and inserts most of a country's prices, past
 * autovacuum's default thresholds). The benchmarks run it where a deployed server would have, untimed;
 * the test machine's server has autovacuum off.
 */
export async function vacuumAnalyze(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
}
