-- One row each time a station's price for a fuel changed, kept by the station's durable identity
-- (country + external id) so it outlives re-imports and orphan cleanups. Pruned after
-- APP_PRICE_HISTORY_DAYS, keeping per station and fuel the last row before the cut (the price then).
CREATE TABLE price_history (
  country TEXT NOT NULL,
  external_id TEXT NOT NULL,
  fuel TEXT NOT NULL,
  price REAL NOT NULL CHECK (price > 0 AND price < 1e12),
  currency TEXT NOT NULL,
  source TEXT NOT NULL,
  -- Milliseconds since the epoch (UTC) of the write that stored the new price.
  changed_at INTEGER NOT NULL
);

CREATE INDEX price_history_station ON price_history (country, external_id, fuel, changed_at);
-- The prune after each run reads only what is older than the cut.
CREATE INDEX price_history_age ON price_history (country, changed_at);
