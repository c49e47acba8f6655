-- When each key's last run finished: a run whose process died (kill -9, a lost machine) never finishes,
-- so it does not count as the key's last run and the next tick of any replica runs the key again
-- (jobs/key-lock.ts). Runs recorded before this column read as unfinished: each key runs once more.
ALTER TABLE scrape_runs ADD COLUMN finished_at timestamptz;
