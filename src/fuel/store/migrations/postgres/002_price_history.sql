-- One row each time a station's price for a fuel changed, kept by the station's durable identity
-- (country + external id) so it outlives re-imports and orphan cleanups. Pruned after
-- APP_PRICE_HISTORY_DAYS, keeping per station and fuel the last row before the cut (the price then).
CREATE TABLE price_history (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  country text NOT NULL,
  external_id text NOT NULL,
  fuel text NOT NULL,
  price double precision NOT NULL CHECK (price > 0 AND price < 1e12),
  currency text NOT NULL,
  source text NOT NULL,
  changed_at timestamptz NOT NULL
);

CREATE INDEX price_history_station_idx ON price_history (country, external_id, fuel, changed_at);
-- The prune after each run reads only what is older than the cut.
CREATE INDEX price_history_age_idx ON price_history (country, changed_at);
