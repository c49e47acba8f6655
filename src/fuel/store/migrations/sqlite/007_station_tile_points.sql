-- The stations of each fuel by zoom-13 tile, packed one row a tile (model/tile-points.ts): a tile of zooms
-- 10-13 reads the rows under it instead of every station it covers through the spatial index. Written
-- with the cluster table by each build; the builds made before this table are done again (until then the
-- tiles are read from the stations).
CREATE TABLE station_tile_points (
  fuel TEXT NOT NULL,
  tile INTEGER NOT NULL,
  currencies TEXT NOT NULL,
  points BLOB NOT NULL,
  PRIMARY KEY (fuel, tile)
);

DELETE FROM station_clusters;
DELETE FROM station_cluster_builds;
UPDATE map_version SET clusters_built = clusters_built + 1;
