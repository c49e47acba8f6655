-- The newest price of a station for a fuel is read from the price index alone: the map's box, nearest and
-- the corridor look one up per station, and fetching it from the table was most of that lookup. The index
-- carries the price and its currency besides its key (an index-only scan needs the table's pages to be
-- all-visible, which autovacuum keeps them after a feed's replace).
CREATE INDEX prices_latest_covering_idx ON prices (station_id, fuel, reported_at DESC, id DESC)
  INCLUDE (price, currency);
DROP INDEX prices_latest_idx;
ALTER INDEX prices_latest_covering_idx RENAME TO prices_latest_idx;
