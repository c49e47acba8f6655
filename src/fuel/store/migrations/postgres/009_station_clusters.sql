-- The clusters of the low zooms' tiles (model/cluster-pyramid.ts), kept so that a tile of a country or a
-- continent is one indexed read of at most 1,024 cells instead of a read of every station it covers.
-- Built again after each change of the stations or their prices (the scrape thread, `fuel scrape`); a
-- fuel's tiles of those zooms come from its last build (seconds behind a scrape), and from the stations
-- until its first.
CREATE TABLE station_clusters (
  fuel text NOT NULL,
  z smallint NOT NULL,
  tx integer NOT NULL,
  ty integer NOT NULL,
  cell smallint NOT NULL,
  count integer NOT NULL,
  sum_ux float8 NOT NULL,
  sum_uy float8 NOT NULL,
  cheapest float8,
  median float8,
  currency text,
  PRIMARY KEY (fuel, z, tx, ty, cell)
);

CREATE TABLE station_cluster_builds (
  fuel text PRIMARY KEY,
  version bigint NOT NULL
);

-- `version` moves with every statement that changes stations or prices (as stations_version, migration
-- 005, does with stations; a fuel's build records the version it read), `clusters_built` with every build
-- written: together they say whether a tile kept in memory is still the tile. A table row, so a reader
-- never sees a number its writer has not committed.
CREATE TABLE map_version (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  version bigint NOT NULL,
  clusters_built bigint NOT NULL DEFAULT 0
);
INSERT INTO map_version (version) VALUES (0);

CREATE FUNCTION map_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE map_version SET version = version + 1;
  ELSIF EXISTS (SELECT 1 FROM changed) THEN
    UPDATE map_version SET version = version + 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER map_version_stations_insert AFTER INSERT ON stations
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION map_version_bump();
CREATE TRIGGER map_version_stations_update AFTER UPDATE ON stations
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION map_version_bump();
CREATE TRIGGER map_version_stations_delete AFTER DELETE ON stations
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION map_version_bump();
CREATE TRIGGER map_version_stations_truncate AFTER TRUNCATE ON stations
  FOR EACH STATEMENT EXECUTE FUNCTION map_version_bump();
CREATE TRIGGER map_version_prices_insert AFTER INSERT ON prices
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION map_version_bump();
CREATE TRIGGER map_version_prices_update AFTER UPDATE ON prices
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION map_version_bump();
CREATE TRIGGER map_version_prices_delete AFTER DELETE ON prices
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION map_version_bump();
CREATE TRIGGER map_version_prices_truncate AFTER TRUNCATE ON prices
  FOR EACH STATEMENT EXECUTE FUNCTION map_version_bump();
