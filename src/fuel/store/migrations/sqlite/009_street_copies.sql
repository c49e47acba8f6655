-- The rows of each fuel's densest zoom-14 tiles (sqlite/street-copies.ts), written by each build: a street
-- tile's stations are otherwise a row and a price each at random places of the file, and the densest took
-- 0.5-1.2 s to read from disk at 10,000,000 stations. A copy answers only while the map is at the version
-- of the fuel's build (station_cluster_builds). The builds made before this table are done again.
CREATE TABLE station_street_copies (
  fuel TEXT NOT NULL,
  tile INTEGER NOT NULL,
  rows BLOB NOT NULL,
  PRIMARY KEY (fuel, tile)
);

DELETE FROM station_cluster_builds;
UPDATE map_version SET clusters_built = clusters_built + 1;
