-- The clusters of the low zooms' tiles (model/cluster-pyramid.ts), kept so that a tile of a country or a
-- continent is one indexed read of at most 1,024 cells instead of a read of every station it covers.
-- Rebuilt after each change of the stations or their prices (the scrape thread, `fuel scrape`); a fuel's
-- cells answer its tiles only while `map_version` is the version they were built from, so a tile is
-- never older than the data: until the rebuild, it is computed from the stations as before.
CREATE TABLE station_clusters (
  fuel TEXT NOT NULL,
  z INTEGER NOT NULL,
  tx INTEGER NOT NULL,
  ty INTEGER NOT NULL,
  cell INTEGER NOT NULL,
  count INTEGER NOT NULL,
  sum_ux REAL NOT NULL,
  sum_uy REAL NOT NULL,
  cheapest REAL,
  median REAL,
  currency TEXT,
  PRIMARY KEY (fuel, z, tx, ty, cell)
) WITHOUT ROWID;

CREATE TABLE station_cluster_builds (
  fuel TEXT PRIMARY KEY,
  version INTEGER NOT NULL
) WITHOUT ROWID;

-- Moved by every write of the store that changes a station's place or type, or a newest price.
CREATE TABLE map_version (
  only_row INTEGER PRIMARY KEY CHECK (only_row = 1),
  version INTEGER NOT NULL
);
INSERT INTO map_version (only_row, version) VALUES (1, 0);
