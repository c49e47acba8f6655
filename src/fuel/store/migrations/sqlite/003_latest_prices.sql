-- The newest price of each station for each fuel, kept beside `prices` by every price replace: the read
-- queries join one row by key instead of searching a station's prices for the newest (a 20,000-station box
-- or a corridor's thousands of stations each paid that search).
CREATE TABLE latest_prices (
  station_seq INTEGER NOT NULL REFERENCES stations (seq) ON DELETE CASCADE,
  fuel TEXT NOT NULL,
  price REAL NOT NULL,
  currency TEXT NOT NULL,
  reported_at INTEGER NOT NULL,
  PRIMARY KEY (station_seq, fuel)
) WITHOUT ROWID;

-- Newest first; among equal times, the last written.
INSERT INTO latest_prices (station_seq, fuel, price, currency, reported_at)
SELECT p.station_seq, p.fuel, p.price, p.currency, p.reported_at FROM prices p
WHERE p.rowid = (
  SELECT q.rowid FROM prices q WHERE q.station_seq = p.station_seq AND q.fuel = p.fuel
  ORDER BY q.reported_at DESC, q.rowid DESC LIMIT 1);
