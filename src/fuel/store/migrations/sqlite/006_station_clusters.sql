-- The clusters of the low zooms' tiles (model/cluster-pyramid.ts), kept so that a tile of a country or a
-- continent is one indexed read of at most 1,024 cells instead of a read of every station it covers.
-- Built again after each change of the stations or their prices (the scrape thread, `fuel scrape`); a
-- fuel's tiles of those zooms come from its last build (seconds behind a scrape), and from the stations
-- until its first.
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

-- `version` moves with every write of the store that changes a station's place or type, or a newest
-- price (a fuel's build records the version it read); `clusters_built` with every build written. Together
-- they say whether a tile kept in memory is still the tile.
CREATE TABLE map_version (
  only_row INTEGER PRIMARY KEY CHECK (only_row = 1),
  version INTEGER NOT NULL,
  clusters_built INTEGER NOT NULL DEFAULT 0
);
INSERT INTO map_version (only_row, version) VALUES (1, 0);
