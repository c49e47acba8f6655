-- Street tiles (zoom 14 and over) read in place order. A station's place key interleaves the bits of its
-- position's units (model/tiles.ts placeKey; PostgreSQL's prices carry the same key, its migration 011), so
-- the stations of any tile hold one range of keys. Read through the stations' rows and their newest prices
-- by station number, which is in sample-key order, a tile of the densest streets (3,657 stations at
-- 10,000,000) was two random page reads a station: 0.5-1.2 s from disk (scripts/bench/README.md). Now:
-- - each station carries its key, written by the store with its position (sqlite/write.ts); the ones stored
--   before are given theirs here by `fuel_place_key`, which every connection of the store defines;
-- - an index holds every column of a street tile's station in key order, so a tile reads a range of it
--   and never the stations' rows;
-- - the newest prices are kept in key order (their primary key begins with the key), so a tile's prices
--   are the same range, and a station's price is still one lookup by its key and number.
ALTER TABLE stations ADD COLUMN place_key INTEGER;
UPDATE stations SET place_key = fuel_place_key(lon, lat);
CREATE INDEX stations_street ON stations (
  place_key, station_type, lon, lat, external_id, country, name, brand, address, city, power_kw
);

CREATE TABLE latest_prices_by_place (
  place_key INTEGER NOT NULL,
  station_seq INTEGER NOT NULL,
  fuel TEXT NOT NULL,
  price REAL NOT NULL,
  currency TEXT NOT NULL,
  reported_at INTEGER NOT NULL,
  PRIMARY KEY (place_key, station_seq, fuel)
) WITHOUT ROWID;
INSERT INTO latest_prices_by_place (place_key, station_seq, fuel, price, currency, reported_at)
SELECT s.place_key, p.station_seq, p.fuel, p.price, p.currency, p.reported_at
FROM latest_prices p JOIN stations s ON s.seq = p.station_seq
ORDER BY s.place_key, p.station_seq, p.fuel;
DROP TABLE latest_prices;
ALTER TABLE latest_prices_by_place RENAME TO latest_prices;

-- The foreign key's cascade would look a deleted station's prices up by its number, which no index of the
-- table begins with; these triggers find them by key and number.
CREATE TRIGGER stations_latest_prices_delete AFTER DELETE ON stations BEGIN
  DELETE FROM latest_prices WHERE place_key = OLD.place_key AND station_seq = OLD.seq;
END;
-- A station that moves takes its newest prices to its new key.
CREATE TRIGGER stations_latest_prices_move AFTER UPDATE OF place_key ON stations
WHEN NEW.place_key IS NOT OLD.place_key BEGIN
  UPDATE latest_prices SET place_key = NEW.place_key
  WHERE place_key = OLD.place_key AND station_seq = OLD.seq;
END;
