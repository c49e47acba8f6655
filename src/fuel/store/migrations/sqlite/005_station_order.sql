-- Station numbers in sample-key order. A station's seq (the key of its row, of its prices' rows and of its
-- R*Tree entry) becomes sample_key * 8192 plus its place among the stations sharing that key (by country
-- and external id; the store gives a new station the next free place). An oversized box keeps the
-- stations with the smallest sample keys: those are now the first rows of the station and price tables,
-- side by side on a few pages, instead of rows scattered over the whole file (a whole-country box of
-- 20,000 stations took half the time; scripts/bench/README.md). Numbers stay below 2^44, exact as
-- JavaScript numbers.
PRAGMA defer_foreign_keys = ON;

CREATE TEMP TABLE seq_order (old INTEGER PRIMARY KEY, new INTEGER NOT NULL);
INSERT INTO seq_order (old, new)
SELECT seq, sample_key * 8192 + row_number() OVER (PARTITION BY sample_key ORDER BY country, external_id) - 1
FROM stations;

-- Through negative numbers first, so that no new number meets an old one.
UPDATE stations SET seq = -seq;
UPDATE stations SET seq = (SELECT new FROM seq_order WHERE old = -stations.seq);
UPDATE prices SET station_seq = (SELECT new FROM seq_order WHERE old = prices.station_seq);
UPDATE latest_prices SET station_seq = -station_seq;
UPDATE latest_prices SET station_seq = (SELECT new FROM seq_order WHERE old = -latest_prices.station_seq);
DELETE FROM stations_rtree;
INSERT INTO stations_rtree (seq, min_lon, max_lon, min_lat, max_lat) SELECT seq, lon, lon, lat, lat FROM stations;

DROP TABLE seq_order;
