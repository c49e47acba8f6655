-- When each scraper key's last run started, whoever ran it: replicas on one database take a key's advisory
-- lock for a run (jobs/key-lock.ts), and under it a replica whose tick comes less than the key's interval
-- after another replica's run skips it, so a key is scraped once per interval, not once per replica.
CREATE TABLE scrape_runs (
  key text PRIMARY KEY,
  started_at timestamptz NOT NULL
);
