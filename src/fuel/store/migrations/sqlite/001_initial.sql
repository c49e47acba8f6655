-- Stations keep an integer key for the R*Tree beside their public uuid.
CREATE TABLE stations (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  external_id TEXT NOT NULL,
  country TEXT NOT NULL,
  station_type TEXT NOT NULL CHECK (station_type IN ('fuel', 'ev_charger', 'both')),
  name TEXT NOT NULL,
  brand TEXT,
  address TEXT NOT NULL,
  city TEXT NOT NULL,
  lon REAL NOT NULL CHECK (lon BETWEEN -180 AND 180),
  lat REAL NOT NULL CHECK (lat BETWEEN -90 AND 90),
  power_kw REAL,
  source TEXT NOT NULL,
  -- A stable pseudo-random number per station: an oversized box keeps the rows with the smallest keys,
  -- which is deterministic and spread over the box.
  sample_key INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (external_id, country)
);

CREATE INDEX stations_country_source ON stations (country, source);
CREATE INDEX stations_country_type ON stations (country, station_type);
-- Walked in order to cut an oversized box (see sample_key).
CREATE INDEX stations_sample_key ON stations (sample_key, country, external_id);

CREATE VIRTUAL TABLE stations_rtree USING rtree (seq, min_lon, max_lon, min_lat, max_lat);

CREATE TRIGGER stations_rtree_insert AFTER INSERT ON stations BEGIN
  INSERT INTO stations_rtree (seq, min_lon, max_lon, min_lat, max_lat)
  VALUES (new.seq, new.lon, new.lon, new.lat, new.lat);
END;

CREATE TRIGGER stations_rtree_update AFTER UPDATE OF lon, lat ON stations
WHEN old.lon IS NOT new.lon OR old.lat IS NOT new.lat BEGIN
  UPDATE stations_rtree SET min_lon = new.lon, max_lon = new.lon, min_lat = new.lat, max_lat = new.lat
  WHERE seq = new.seq;
END;

CREATE TRIGGER stations_rtree_delete AFTER DELETE ON stations BEGIN
  DELETE FROM stations_rtree WHERE seq = old.seq;
END;

CREATE TABLE prices (
  station_seq INTEGER NOT NULL REFERENCES stations (seq) ON DELETE CASCADE,
  fuel TEXT NOT NULL,
  price REAL NOT NULL CHECK (price > 0 AND price < 1e12),
  currency TEXT NOT NULL,
  -- Milliseconds since the epoch (UTC).
  reported_at INTEGER NOT NULL,
  source TEXT NOT NULL
);

-- "Latest price of fuel F per station".
-- Read backwards: the newest price first, the last written first among equal times.
CREATE INDEX prices_latest ON prices (station_seq, fuel, reported_at);
CREATE INDEX prices_source ON prices (source, station_seq);
